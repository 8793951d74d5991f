/**
 * The {@code informers} actuator endpoint: {@link dev.informer.endpoint.InformersEndpoint}.
 */
@NullMarked
package dev.informer.endpoint;

import org.jspecify.annotations.NullMarked;
