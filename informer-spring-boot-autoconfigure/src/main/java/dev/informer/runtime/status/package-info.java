/**
 * The status of each watch: its immutable {@link dev.informer.runtime.status.WatchState
 * state}, changed only by {@link dev.informer.runtime.status.WatchTransitions#step} run
 * by its one writer, {@link dev.informer.runtime.status.WatchStatus}; beside it, the
 * {@link dev.informer.runtime.status.WatchObservations counts} of what flows through the
 * watch; read as immutable {@link dev.informer.watch.WatchSnapshot snapshots}. Depends on
 * the API and the read model only; never holds resource data.
 */
@NullMarked
package dev.informer.runtime.status;

import org.jspecify.annotations.NullMarked;
