package dev.informer.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.informer.InformerState;

/**
 * One watch (one fabric8 informer: a namespace of an informer, or all of it): what it has
 * done (state, list cycles, resyncs, errors and event counts) and what it holds now, read
 * as immutable {@link #snapshot() snapshots}. The getters are shortcuts that each take a
 * snapshot: to read several values that agree with each other, take one snapshot. Never
 * holds resource data. Longer than most types only because it has one documented shortcut
 * per value of {@link WatchSnapshot}.
 * <p>
 * Whether the watch is open is sampled, not signalled: fabric8 reports no callback when
 * it closes a watch to rotate it (see {@link WatchHealthPolicy}) or loses the connection,
 * so {@link #isWatching()} and {@link #getNotWatchingSince()} are as fresh as the last
 * sample of the runtime's watch monitor, and a loss shorter than the sampling period may
 * go uncounted in {@link #getReconnects()}. {@link #isOpen()} asks fabric8 now.
 */
public interface Watch {

	/**
	 * Return the namespace, {@code null} for all namespaces or cluster scope.
	 * @return the namespace
	 */
	@Nullable String getNamespace();

	/**
	 * Take an immutable snapshot of everything below, at once: what adapters read.
	 * @return the snapshot
	 */
	WatchSnapshot snapshot();

	/**
	 * Return the current state.
	 * @return the state
	 */
	default InformerState getState() {
		return snapshot().state();
	}

	/**
	 * Return when the current state began.
	 * @return the time of the last transition
	 */
	default Instant getStateSince() {
		return snapshot().stateSince();
	}

	/**
	 * Return whether the initial list has been delivered to listeners.
	 * @return whether synced
	 */
	default boolean isSynced() {
		return snapshot().isSynced();
	}

	/**
	 * Return when the initial list had been delivered.
	 * @return the sync time or {@code null}
	 */
	default @Nullable Instant getSyncedAt() {
		return snapshot().syncedAt();
	}

	/**
	 * Return whether the watch was open when last sampled.
	 * @return whether watching
	 */
	default boolean isWatching() {
		return snapshot().watching();
	}

	/**
	 * Return whether fabric8's watch is open now, without waiting for a sample.
	 * @return whether the watch is open
	 */
	default boolean isOpen() {
		return snapshot().open();
	}

	/**
	 * Return since when the watch has been known not to be open: since the end of the
	 * last list (the watch opens right after it), or since a sample or an error found it
	 * lost.
	 * @return the time, or {@code null} while watching (or before the first list)
	 */
	default @Nullable Instant getNotWatchingSince() {
		return snapshot().notWatchingSince();
	}

	/**
	 * Return the number of objects this watch has cached.
	 * @return the cache size
	 */
	default int getCacheSize() {
		return snapshot().cacheSize();
	}

	/**
	 * Return how many changes this watch has applied to its cache but not yet delivered
	 * to listeners: a backlog that grows when listeners are slower than the changes.
	 * @return the number of undelivered changes
	 */
	default long getBacklog() {
		return snapshot().backlog();
	}

	/**
	 * Return how many changes were folded into later changes of the same object because
	 * the backlog was at {@code informer.delivery.max-backlog}.
	 * @return the changes coalesced
	 */
	default long getCoalesced() {
		return snapshot().coalesced();
	}

	/**
	 * Return the last resourceVersion this watch has seen (from an event, a bookmark or a
	 * list).
	 * @return the resource version or {@code null}
	 */
	default @Nullable String getLastResourceVersion() {
		return snapshot().lastResourceVersion();
	}

	/**
	 * Return when the last event was delivered.
	 * @return the time or {@code null}
	 */
	default @Nullable Instant getLastEventAt() {
		return snapshot().lastEventAt();
	}

	/**
	 * Return when the watch last made progress: the later of the last delivered event and
	 * the last observed change of resourceVersion (which bookmarks also advance).
	 * @return the time or {@code null}
	 */
	default @Nullable Instant getLastActivityAt() {
		return snapshot().lastActivityAt();
	}

	/**
	 * Return the last completed list.
	 * @return the list cycle or {@code null}
	 */
	default @Nullable ListCycle getLastList() {
		return snapshot().lastList();
	}

	/**
	 * Return the number of completed lists, the initial one included.
	 * @return the list count
	 */
	default long getListCount() {
		return snapshot().listCount();
	}

	/**
	 * Return the time spent in all completed lists.
	 * @return the total list time
	 */
	default Duration getListTotalTime() {
		return snapshot().listTotalTime();
	}

	/**
	 * Return the last error.
	 * @return the error or {@code null}
	 */
	default @Nullable WatchError getLastError() {
		return snapshot().lastError();
	}

	/**
	 * Return the number of errors since the last successful list.
	 * @return the consecutive failures
	 */
	default int getConsecutiveFailures() {
		return snapshot().consecutiveFailures();
	}

	/**
	 * Return how often the watch was lost after the informer had synced. A loss counts
	 * once however many attempts the reconnect takes.
	 * @return the reconnect count
	 */
	default long getReconnects() {
		return snapshot().reconnects();
	}

	/**
	 * Return the relists after the initial list, by the {@link RelistReason#tagValue()
	 * tag value} of their reason, sorted.
	 * @return relist counts by reason
	 */
	default Map<String, Long> getRelists() {
		return snapshot().relists();
	}

	/**
	 * Return the relists of one reason.
	 * @param reason the reason
	 * @return the count
	 */
	default long getRelistCount(RelistReason reason) {
		return snapshot().relistCount(reason);
	}

	/**
	 * Return the number of relists after the initial list.
	 * @return the relist count
	 */
	default long getRelistCount() {
		return snapshot().relistCount();
	}

	/**
	 * Return the events delivered, by the {@link EventType#tagValue() tag value} of their
	 * type, sorted.
	 * @return event counts by type
	 */
	default Map<String, Long> getEvents() {
		return snapshot().events();
	}

	/**
	 * Return the events of one type delivered.
	 * @param type the event type
	 * @return the count
	 */
	default long getEventCount(EventType type) {
		return snapshot().eventCount(type);
	}

	/**
	 * Return the updates cached but not delivered because {@code on-change} found none of
	 * its parts changed.
	 * @return the count
	 */
	default long getFilteredEvents() {
		return snapshot().filteredEvents();
	}

	/**
	 * Return how often a listener threw.
	 * @return the listener failure count
	 */
	default long getListenerFailures() {
		return snapshot().listenerFailures();
	}

	/**
	 * Return the resync period, zero when resync is disabled.
	 * @return the resync period
	 */
	default Duration getResyncPeriod() {
		return snapshot().resync().period();
	}

	/**
	 * Return the number of resync cycles: bursts of resync events, one per resync period.
	 * @return the resync cycle count
	 */
	default long getResyncCount() {
		return snapshot().resync().cycles();
	}

	/**
	 * Return the time spent in all resync cycles, each measured from its first to its
	 * last resync event.
	 * @return the total resync time
	 */
	default Duration getResyncTotalTime() {
		return snapshot().resync().totalTime();
	}

	/**
	 * Return when the last resync event was delivered.
	 * @return the time or {@code null}
	 */
	default @Nullable Instant getLastResyncAt() {
		return snapshot().resync().lastAt();
	}

	/**
	 * Return how long the last (or current) resync cycle took from its first to its last
	 * event.
	 * @return the duration or {@code null} before the first resync
	 */
	default @Nullable Duration getLastResyncDuration() {
		return snapshot().resync().lastDuration();
	}

	/**
	 * Return when the next resync is due: a period after the last cycle started, or after
	 * the sync before the first cycle.
	 * @return the time or {@code null} when resync is disabled or the watch has not
	 * synced
	 */
	default @Nullable Instant getNextResyncAt() {
		return snapshot().resync().nextDueAt();
	}

	/**
	 * Return the share of the last samples in which the watch was open.
	 * @return the availability between 0 and 1, or -1 until the window is full
	 * @see WatchSnapshot.Availability#share()
	 */
	default double getWatchAvailability() {
		return snapshot().availability().share();
	}

	/**
	 * Return how many times the watch was seen lost within the given window.
	 * @param window the window, ending now
	 * @return the number of observed reconnects
	 * @see WatchSnapshot.Availability#reconnectsWithin(Duration, Instant)
	 */
	default int getReconnectsWithin(Duration window) {
		WatchSnapshot snapshot = snapshot();
		return snapshot.availability().reconnectsWithin(window, snapshot.takenAt());
	}

	/**
	 * Return how many relists fabric8 started by itself within the given window.
	 * @param window the window, ending now
	 * @return the number of relists
	 * @see WatchSnapshot.Availability#relistsWithin(Duration, Instant)
	 */
	default int getRelistsWithin(Duration window) {
		WatchSnapshot snapshot = snapshot();
		return snapshot.availability().relistsWithin(window, snapshot.takenAt());
	}

	/**
	 * Return whether the watch keeps failing.
	 * @param minAvailability the share of time the watch must be open
	 * @param window the window, ending now
	 * @return whether the watch is flapping
	 * @see WatchSnapshot.Availability#isFlapping(double, Duration, Instant)
	 */
	default boolean isFlapping(double minAvailability, Duration window) {
		return snapshot().isFlapping(minAvailability, window);
	}

}
