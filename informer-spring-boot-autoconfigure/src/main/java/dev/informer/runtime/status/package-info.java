/**
 * The status of each watch, as the runtime records it and the read model shows it: one
 * state machine ({@link dev.informer.runtime.status.WatchStateMachine}), counters, the
 * availability window and resync cycles, assembled into immutable
 * {@link dev.informer.watch.WatchSnapshot snapshots}. Depends on the API and the read
 * model only; never holds resource data.
 */
@NullMarked
package dev.informer.runtime.status;

import org.jspecify.annotations.NullMarked;
