/**
 * The informers an application declares, as it uses them:
 * {@link dev.informer.InformerRegistry} and {@link dev.informer.Informer} with their
 * {@link dev.informer.ResourceCache caches}, {@link dev.informer.InformerCustomizer
 * customizers}, declarations and the RBAC rules they need. Depends on no sub-package:
 * events are in {@code dev.informer.event}, the read model of watch state in
 * {@code dev.informer.watch}, the implementation in {@code dev.informer.runtime}.
 */
@NullMarked
package dev.informer;

import org.jspecify.annotations.NullMarked;
