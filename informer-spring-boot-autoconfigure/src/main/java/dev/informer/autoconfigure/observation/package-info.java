/**
 * Auto-configuration of the {@code informer.event} observation.
 */
@NullMarked
package dev.informer.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
