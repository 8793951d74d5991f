/**
 * Actuator adapter: the {@code informers} endpoint,
 * {@link dev.informer.endpoint.InformersEndpoint}, over the {@code dev.informer.watch}
 * read model.
 */
@NullMarked
package dev.informer.endpoint;

import org.jspecify.annotations.NullMarked;
