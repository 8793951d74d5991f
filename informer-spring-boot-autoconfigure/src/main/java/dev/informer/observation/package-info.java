/**
 * Micrometer Observation adapter: an observation named {@code informer.event} around the
 * delivery of each resource event to the listeners
 * ({@code informer.events.observation-enabled=true}), with a convention users can
 * replace.
 */
@NullMarked
package dev.informer.observation;

import org.jspecify.annotations.NullMarked;
