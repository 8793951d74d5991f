package dev.informer.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.informer.InformerState;

/**
 * What one watch had done and held at one moment, immutable: what health, metrics and the
 * {@code informers} endpoint read. Taken with {@link Watch#snapshot()}; never holds
 * resource data.
 *
 * @param takenAt when the snapshot was taken
 * @param namespace the namespace, {@code null} for all namespaces or cluster scope
 * @param state the state
 * @param stateSince when the state began
 * @param syncedAt when the initial list had been delivered, {@code null} before
 * @param watching whether the watch was open when last sampled
 * @param open whether fabric8's watch was open when the snapshot was taken
 * @param notWatchingSince since when the watch has been known not to be open,
 * {@code null} while watching (or before the first list)
 * @param cacheSize the objects cached
 * @param backlog the changes cached but not yet delivered to listeners
 * @param lastResourceVersion the last resourceVersion seen (event, bookmark or list)
 * @param lastEventAt when the last event was delivered
 * @param lastActivityAt the later of the last event and the last change of
 * resourceVersion
 * @param lastList the last completed list
 * @param listCount the completed lists, the initial one included
 * @param listTotalTime the time spent in all completed lists
 * @param lastError the last error
 * @param consecutiveFailures the errors since the last successful list
 * @param reconnects how often the watch was lost after the sync (once per loss)
 * @param relists the relists after the initial list, by {@link RelistReason#tagValue()},
 * sorted
 * @param events the events delivered, by {@link EventType#tagValue()}, sorted
 * @param listenerFailures how often a listener threw
 * @param filteredEvents the updates cached but not delivered because {@code on-change}
 * found none of its parts changed
 * @param resync the resync cycles
 * @param availability the availability window
 * @param coalesced the changes folded into later ones because the backlog was at
 * {@code informer.delivery.max-backlog} ({@code overflow=coalesce})
 * @param backlogAtBound whether the backlog was at {@code informer.delivery.max-backlog}
 */
public record WatchSnapshot(Instant takenAt, @Nullable String namespace, InformerState state, Instant stateSince,
		@Nullable Instant syncedAt, boolean watching, boolean open, @Nullable Instant notWatchingSince, int cacheSize,
		long backlog, @Nullable String lastResourceVersion, @Nullable Instant lastEventAt,
		@Nullable Instant lastActivityAt, @Nullable ListCycle lastList, long listCount, Duration listTotalTime,
		@Nullable WatchError lastError, int consecutiveFailures, long reconnects, Map<String, Long> relists,
		Map<String, Long> events, long listenerFailures, long filteredEvents, Resync resync, Availability availability,
		long coalesced, boolean backlogAtBound) {

	/**
	 * Return whether the initial list had been delivered.
	 * @return whether synced
	 */
	public boolean isSynced() {
		return this.syncedAt != null;
	}

	/**
	 * Return the relists of one reason.
	 * @param reason the reason
	 * @return the count
	 */
	public long relistCount(RelistReason reason) {
		return this.relists.getOrDefault(reason.tagValue(), 0L);
	}

	/**
	 * Return the number of relists after the initial list.
	 * @return the relist count
	 */
	public long relistCount() {
		return this.relists.values().stream().mapToLong(Long::longValue).sum();
	}

	/**
	 * Return the events of one type delivered.
	 * @param type the event type
	 * @return the count
	 */
	public long eventCount(EventType type) {
		return this.events.getOrDefault(type.tagValue(), 0L);
	}

	/**
	 * Return whether the watch keeps failing, as {@link Availability#isFlapping} judges
	 * it at {@link #takenAt()}.
	 * @param minAvailability the share of time the watch must be open
	 * @param window the window, ending when the snapshot was taken
	 * @return whether the watch is flapping
	 */
	public boolean isFlapping(double minAvailability, Duration window) {
		return this.availability.isFlapping(minAvailability, window, this.takenAt);
	}

	/**
	 * The resync cycles of a watch: bursts of resync events, one per resync period.
	 *
	 * @param period the resync period, zero when resync is disabled
	 * @param cycles the number of cycles
	 * @param totalTime the time spent in all cycles, each from its first to its last
	 * event
	 * @param lastAt when the last resync event was delivered
	 * @param lastDuration how long the last (or current) cycle took, {@code null} before
	 * the first
	 * @param nextDueAt when the next cycle is due, {@code null} when resync is disabled
	 * or the watch has not synced
	 */
	public record Resync(Duration period, long cycles, Duration totalTime, @Nullable Instant lastAt,
			@Nullable Duration lastDuration, @Nullable Instant nextDueAt) {

	}

	/**
	 * The availability window of a watch: the share of the last samples in which it was
	 * open, and when it was last lost or relisted by fabric8 within the window.
	 *
	 * @param share the share of samples in which the watch was open, between 0 and 1, or
	 * negative until the window is full
	 * @param reconnects when the watch was seen lost, oldest first
	 * @param relists when fabric8 relisted by itself (after 410 Gone or an error), oldest
	 * first
	 */
	public record Availability(double share, List<Instant> reconnects, List<Instant> relists) {

		/**
		 * Return how many times the watch was seen lost within the window.
		 * @param window the window
		 * @param end the end of the window
		 * @return the number of observed reconnects
		 */
		public int reconnectsWithin(Duration window, Instant end) {
			return within(this.reconnects, window, end);
		}

		/**
		 * Return how many relists fabric8 started by itself within the window. fabric8
		 * relists at once when a server ends a watch without a message or answers 410; a
		 * server that keeps doing so makes it relist about once a second while the watch
		 * looks open.
		 * @param window the window
		 * @param end the end of the window
		 * @return the number of relists
		 */
		public int relistsWithin(Duration window, Instant end) {
			return within(this.relists, window, end);
		}

		/**
		 * Return whether the watch keeps failing: open less than the given share of the
		 * full availability window and lost at least three times within the window, or
		 * relisted by fabric8 at least three times within it. A watch the server keeps
		 * closing looks like that; a server that is down does not (its watch stays lost,
		 * which the watch-loss grace judges).
		 * @param minAvailability the share of time the watch must be open
		 * @param window the window
		 * @param end the end of the window
		 * @return whether the watch is flapping
		 */
		public boolean isFlapping(double minAvailability, Duration window, Instant end) {
			return (this.share >= 0 && this.share < minAvailability && reconnectsWithin(window, end) >= 3)
					|| relistsWithin(window, end) >= 3;
		}

		private static int within(List<Instant> times, Duration window, Instant end) {
			Instant from = end.minus(window);
			return (int) times.stream().filter((at) -> at.isAfter(from)).count();
		}

	}

}
