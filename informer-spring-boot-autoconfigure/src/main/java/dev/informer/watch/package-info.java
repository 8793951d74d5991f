/**
 * The read model of watch state, free of Spring Boot: one
 * {@link dev.informer.watch.Watch} per namespace of an informer, its
 * {@link dev.informer.watch.ListCycle list cycles},
 * {@link dev.informer.watch.RelistReason relist reasons},
 * {@link dev.informer.watch.EventType event types}, and the
 * {@link dev.informer.watch.WatchHealthPolicy health policy} that health and the
 * {@code informers} endpoint share.
 */
@NullMarked
package dev.informer.watch;

import org.jspecify.annotations.NullMarked;
