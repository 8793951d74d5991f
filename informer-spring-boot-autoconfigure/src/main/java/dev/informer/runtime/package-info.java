/**
 * Informer runtime, internal: the registry implementation, kind resolution, the informers
 * and their per-namespace watches, delivery, recovery and the lifecycle. Usable without
 * auto-configuration; applications use the types of {@code dev.informer} instead.
 */
@NullMarked
package dev.informer.runtime;

import org.jspecify.annotations.NullMarked;
