package dev.informer.runtime.status;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.informer.InformerState;
import dev.informer.watch.RelistReason;
import dev.informer.watch.WatchError;
import dev.informer.watch.WatchSnapshot;

/**
 * The state of one watch, immutable: what {@link WatchTransitions#step} takes and
 * returns, and what {@link WatchStatus} publishes as one value after each step. Its parts
 * are the parts of a {@link WatchSnapshot} wherever the snapshot shows them as they are,
 * so a snapshot copies nothing of it.
 *
 * @param lifecycle the state, since when, and when the watch first synced
 * @param connection whether the watch is open (the one answer to "is it watching"), since
 * when it is not, and how often it was lost
 * @param listing the list in progress: when it started and why
 * @param lists the lists completed
 * @param lastError the last error, or {@code null}
 * @param consecutiveFailures the errors since the last completed list
 * @param availability the availability window
 * @param resourceVersion the last resourceVersion sampled from fabric8, or {@code null}
 * @param resourceVersionChangedAt when that sample last moved, or {@code null}
 * @param silentRestarts how often the connection was ended for silence
 */
record WatchState(WatchSnapshot.Lifecycle lifecycle, WatchSnapshot.Connection connection, Listing listing,
		WatchSnapshot.Lists lists, @Nullable WatchError lastError, int consecutiveFailures,
		AvailabilityWindow availability, @Nullable String resourceVersion, @Nullable Instant resourceVersionChangedAt,
		long silentRestarts) {

	static WatchState initial(Instant now, int availabilitySamples) {
		return new WatchState(new WatchSnapshot.Lifecycle(InformerState.STARTING, now, null),
				new WatchSnapshot.Connection(false, null, 0), new Listing(null, RelistReason.INITIAL),
				new WatchSnapshot.Lists(null, 0, Duration.ZERO, Map.of()), null, 0,
				new AvailabilityWindow(availabilitySamples), null, null, 0);
	}

	InformerState state() {
		return this.lifecycle.state();
	}

	boolean isSynced() {
		return this.lifecycle.syncedAt() != null;
	}

	boolean isWatching() {
		return this.connection.watching();
	}

	/**
	 * Take a snapshot of this state with what flowed through the watch beside it.
	 * @param namespace the watch's namespace, {@code null} for all or cluster scope
	 * @param now the time of the snapshot
	 * @param observed the watch's observations
	 * @return the snapshot
	 */
	WatchSnapshot snapshot(@Nullable String namespace, Instant now, WatchObservations observed) {
		WatchContents contents = observed.contents;
		return new WatchSnapshot(now, namespace, this.lifecycle, this.connection,
				new WatchSnapshot.Cache(contents.cacheSize(), contents.backlog(), contents.backlogAtBound(),
						observed.coalescedCount(), observed.rejectedCount(), contents.lastResourceVersion()),
				this.lists,
				new WatchSnapshot.Events(observed.events(), observed.listenerFailures(), observed.filteredCount(),
						observed.lastEventAt(), lastActivityAt(observed)),
				new WatchSnapshot.Errors(this.lastError, this.consecutiveFailures, observed.undecodable.list()),
				observed.resyncs.snapshot(this.lifecycle.syncedAt()), this.availability.snapshot(),
				observed.lag.snapshot(now, contents.lastResourceVersion()),
				new WatchSnapshot.Liveness(observed.lastArrivalAt(), observed.lastBookmarkAt(), this.silentRestarts));
	}

	/**
	 * Return the later of the last event delivered and the last move of the sampled
	 * resourceVersion (a bookmark moves it).
	 * @param observed the watch's observations
	 * @return the time, {@code null} before either
	 */
	@Nullable Instant lastActivityAt(WatchObservations observed) {
		Instant event = observed.lastEventAt();
		Instant version = this.resourceVersionChangedAt;
		if (event == null) {
			return version;
		}
		return (version != null && version.isAfter(event)) ? version : event;
	}

	WatchState with(WatchSnapshot.Lifecycle lifecycle) {
		return new WatchState(lifecycle, this.connection, this.listing, this.lists, this.lastError,
				this.consecutiveFailures, this.availability, this.resourceVersion, this.resourceVersionChangedAt,
				this.silentRestarts);
	}

	WatchState with(WatchSnapshot.Connection connection) {
		return new WatchState(this.lifecycle, connection, this.listing, this.lists, this.lastError,
				this.consecutiveFailures, this.availability, this.resourceVersion, this.resourceVersionChangedAt,
				this.silentRestarts);
	}

	WatchState with(Listing listing, WatchSnapshot.Lists lists) {
		return new WatchState(this.lifecycle, this.connection, listing, lists, this.lastError, this.consecutiveFailures,
				this.availability, this.resourceVersion, this.resourceVersionChangedAt, this.silentRestarts);
	}

	WatchState with(@Nullable WatchError lastError, int consecutiveFailures) {
		return new WatchState(this.lifecycle, this.connection, this.listing, this.lists, lastError, consecutiveFailures,
				this.availability, this.resourceVersion, this.resourceVersionChangedAt, this.silentRestarts);
	}

	WatchState with(AvailabilityWindow availability) {
		return new WatchState(this.lifecycle, this.connection, this.listing, this.lists, this.lastError,
				this.consecutiveFailures, availability, this.resourceVersion, this.resourceVersionChangedAt,
				this.silentRestarts);
	}

	WatchState withResourceVersion(String resourceVersion, Instant changedAt) {
		return new WatchState(this.lifecycle, this.connection, this.listing, this.lists, this.lastError,
				this.consecutiveFailures, this.availability, resourceVersion, changedAt, this.silentRestarts);
	}

	WatchState withSilentRestart() {
		return new WatchState(this.lifecycle, this.connection, this.listing, this.lists, this.lastError,
				this.consecutiveFailures, this.availability, this.resourceVersion, this.resourceVersionChangedAt,
				this.silentRestarts + 1);
	}

	/**
	 * The list in progress.
	 *
	 * @param startedAt when it started, or {@code null} before the first
	 * @param trigger why: fabric8 retries a failed list without a new start, and the
	 * errors of those attempts must not relabel it
	 */
	record Listing(@Nullable Instant startedAt, RelistReason trigger) {
	}

}
