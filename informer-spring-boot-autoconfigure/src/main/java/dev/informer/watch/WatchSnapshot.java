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
 * resource data. Its values come in groups, one per part of the watch a reader asks
 * about: where it is in its {@link Lifecycle lifecycle}, its {@link Connection
 * connection}, its {@link Cache cache}, its {@link Lists lists}, the {@link Events
 * events} it delivered, its {@link Errors errors}, its {@link Resync resync cycles} and
 * its {@link Availability availability window}.
 *
 * @param takenAt when the snapshot was taken
 * @param namespace the namespace, {@code null} for all namespaces or cluster scope
 * @param lifecycle the state and whether the initial list was delivered
 * @param connection whether the watch is open, and how often it was lost
 * @param cache what the cache holds and what listeners have not seen yet
 * @param lists the initial list and the relists
 * @param events the events delivered to listeners
 * @param errors the errors seen
 * @param resync the resync cycles
 * @param availability the availability window
 * @since 0.1.0
 */
public record WatchSnapshot(Instant takenAt, @Nullable String namespace, Lifecycle lifecycle, Connection connection,
		Cache cache, Lists lists, Events events, Errors errors, Resync resync, Availability availability) {

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
	 * Where a watch is in its lifecycle.
	 *
	 * @param state the state
	 * @param since when the state began
	 * @param syncedAt when the initial list had been delivered, {@code null} before
	 * @since 0.1.0
	 */
	public record Lifecycle(InformerState state, Instant since, @Nullable Instant syncedAt) {

		/**
		 * Return whether the initial list had been delivered.
		 * @return whether synced
		 */
		public boolean isSynced() {
			return this.syncedAt != null;
		}

	}

	/**
	 * The watch connection. Whether it is open is sampled, not signalled: see
	 * {@link Watch}.
	 *
	 * @param watching whether the watch was open when last sampled
	 * @param open whether fabric8's watch was open when the snapshot was taken
	 * @param notWatchingSince since when the watch has been known not to be open: since
	 * the end of the last list (the watch opens right after it), or since a sample or an
	 * error found it lost; {@code null} while watching (or before the first list)
	 * @param reconnects how often the watch was lost after the sync, once per loss
	 * however many attempts the reconnect took
	 * @since 0.1.0
	 */
	public record Connection(boolean watching, boolean open, @Nullable Instant notWatchingSince, long reconnects) {

	}

	/**
	 * What the cache of a watch holds, and the changes in it listeners have not seen yet.
	 *
	 * @param size the objects cached
	 * @param backlog the changes cached but not yet delivered to listeners: a backlog
	 * that grows when listeners are slower than the changes
	 * @param backlogAtBound whether the backlog was at
	 * {@code informer.delivery.max-backlog}
	 * @param coalesced the changes folded into later changes of the same object because
	 * the backlog was at {@code informer.delivery.max-backlog}
	 * ({@code overflow=coalesce})
	 * @param lastResourceVersion the last resourceVersion seen (from an event, a bookmark
	 * or a list)
	 * @since 0.1.0
	 */
	public record Cache(int size, long backlog, boolean backlogAtBound, long coalesced,
			@Nullable String lastResourceVersion) {

	}

	/**
	 * The lists of a watch: the initial list and the relists after it.
	 *
	 * @param last the last completed list, {@code null} before the first
	 * @param count the completed lists, the initial one included
	 * @param totalTime the time spent in all completed lists
	 * @param relists the relists after the initial list, by the
	 * {@link RelistReason#tagValue() tag value} of their reason, sorted
	 * @since 0.1.0
	 */
	public record Lists(@Nullable ListCycle last, long count, Duration totalTime, Map<String, Long> relists) {

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

	}

	/**
	 * The events a watch delivered to listeners.
	 *
	 * @param byType the events delivered, by the {@link EventType#tagValue() tag value}
	 * of their type, sorted
	 * @param listenerFailures how often a listener threw
	 * @param filtered the updates cached but not delivered because {@code on-change}
	 * found none of its parts changed
	 * @param lastAt when the last event was delivered
	 * @param lastActivityAt when the watch last made progress: the later of the last
	 * delivered event and the last observed change of resourceVersion (which bookmarks
	 * also advance)
	 * @since 0.1.0
	 */
	public record Events(Map<String, Long> byType, long listenerFailures, long filtered, @Nullable Instant lastAt,
			@Nullable Instant lastActivityAt) {

		/**
		 * Return the events of one type delivered.
		 * @param type the event type
		 * @return the count
		 */
		public long count(EventType type) {
			return this.byType.getOrDefault(type.tagValue(), 0L);
		}

	}

	/**
	 * The errors a watch saw.
	 *
	 * @param last the last error, {@code null} before the first
	 * @param consecutive the errors since the last successful list
	 * @since 0.1.0
	 */
	public record Errors(@Nullable WatchError last, int consecutive) {

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
	 * @param nextDueAt when the next cycle is due: a period after the last cycle started,
	 * or after the sync before the first cycle; {@code null} when resync is disabled or
	 * the watch has not synced
	 * @since 0.1.0
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
	 * @since 0.1.0
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
