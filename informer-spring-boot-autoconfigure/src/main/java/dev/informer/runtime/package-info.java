/**
 * Informer runtime, internal, its core: the informers ({@code ResourceInformer}), their
 * watches ({@code ResourceWatch}) and the pipeline each watch wires when it starts
 * (source, change log, listener queue, replica gate, on-change filter, listeners), the
 * registry and the lifecycle. Each concern around the core has a room of its own
 * ({@code status}, {@code recovery}, {@code kinds}, {@code namespaces}, {@code replicas},
 * {@code listeners}, {@code changes}), none of which depends on the core. Usable without
 * auto-configuration; applications use the types of {@code dev.informer} instead.
 */
@NullMarked
package dev.informer.runtime;

import org.jspecify.annotations.NullMarked;
