/**
 * Auto-configuration of the {@code informers} actuator endpoint.
 */
@NullMarked
package dev.informer.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
