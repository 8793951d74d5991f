package dev.informer.watch;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.informer.InformerState;

/**
 * One watch (one fabric8 informer: a namespace of an informer, or all of it): what it has
 * done (state, list cycles, resyncs, errors and event counts) and what it holds now, read
 * as immutable {@link #snapshot() snapshots}. To read several values that agree with each
 * other, take one snapshot; the few other methods read one value each without taking one,
 * for the runtime, which asks them often. Never holds resource data.
 * <p>
 * Whether the watch is open is sampled, not signalled: fabric8 reports no callback when
 * it closes a watch to rotate it (see {@link WatchHealthPolicy}) or loses the connection,
 * so {@link #isWatching()} and {@link #getNotWatchingSince()} are as fresh as the last
 * sample of the runtime's watch monitor, and a loss shorter than the sampling period may
 * go uncounted in {@link WatchSnapshot.Connection#reconnects()}. Health, the endpoint and
 * the {@code informer.watching} gauge give that same answer.
 *
 * @since 0.1.0
 */
public interface Watch {

	/**
	 * Return the namespace, {@code null} for all namespaces or cluster scope.
	 * @return the namespace
	 */
	@Nullable String getNamespace();

	/**
	 * Take an immutable snapshot of everything the watch has done and holds, at once:
	 * what adapters read.
	 * @return the snapshot
	 */
	WatchSnapshot snapshot();

	/**
	 * Return the current state.
	 * @return the state
	 * @see WatchSnapshot.Lifecycle#state()
	 */
	InformerState getState();

	/**
	 * Return whether the initial list has been delivered to listeners.
	 * @return whether synced
	 * @see WatchSnapshot.Lifecycle#isSynced()
	 */
	boolean isSynced();

	/**
	 * Return whether the watch was open when last sampled.
	 * @return whether watching
	 * @see WatchSnapshot.Connection#watching()
	 */
	boolean isWatching();

	/**
	 * Return since when the watch has been known not to be open.
	 * @return the time, or {@code null} while watching (or before the first list)
	 * @see WatchSnapshot.Connection#notWatchingSince()
	 */
	@Nullable Instant getNotWatchingSince();

	/**
	 * Return the last error.
	 * @return the error or {@code null}
	 * @see WatchSnapshot.Errors#last()
	 */
	@Nullable WatchError getLastError();

	/**
	 * Return when the watch last made progress.
	 * @return the time or {@code null}
	 * @see WatchSnapshot.Events#lastActivityAt()
	 */
	@Nullable Instant getLastActivityAt();

}
