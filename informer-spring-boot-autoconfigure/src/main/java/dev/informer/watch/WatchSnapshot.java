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
 * events} it delivered, its {@link Errors errors}, its {@link Resync resync cycles}, its
 * {@link Availability availability window} and its {@link Lag lag} behind the API server.
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
 * @param lag how far the cache is behind the API server
 * @param liveness what last arrived on the watch connection
 * @since 0.1.0
 */
public record WatchSnapshot(Instant takenAt, @Nullable String namespace, Lifecycle lifecycle, Connection connection,
		Cache cache, Lists lists, Events events, Errors errors, Resync resync, Availability availability, Lag lag,
		Liveness liveness) {

	/**
	 * What last arrived on the watch connection, which is how a connection that went
	 * silent without closing (a black hole) is told from an open one: the API server
	 * sends an idle watch a bookmark about once a minute.
	 *
	 * @param lastByteAt when the connection last opened or a message (event or bookmark)
	 * last arrived on it, {@code null} before the first connection
	 * @param lastBookmarkAt when the last bookmark arrived, {@code null} before the first
	 * @param silentRestarts how many times the connection was ended because nothing had
	 * arrived on it for longer than
	 * {@code informer.reliability.restart-silent-watch-after}
	 * @since 0.1.0
	 */
	public record Liveness(@Nullable Instant lastByteAt, @Nullable Instant lastBookmarkAt, long silentRestarts) {

		/**
		 * Return how long nothing has arrived on the connection.
		 * @param now the current time
		 * @return the time since the last byte, {@code null} before the first connection
		 */
		public @Nullable Duration sinceLastByte(Instant now) {
			return (this.lastByteAt != null) ? Duration.between(this.lastByteAt, now) : null;
		}

		/**
		 * Return how long no bookmark has arrived.
		 * @param now the current time
		 * @return the time since the last bookmark, {@code null} before the first
		 */
		public @Nullable Duration sinceLastBookmark(Instant now) {
			return (this.lastBookmarkAt != null) ? Duration.between(this.lastBookmarkAt, now) : null;
		}

	}

	/**
	 * Return whether the watch is open but nothing has arrived on its connection for
	 * longer than {@code bound}: the connection may be dead without having closed.
	 * @param bound the longest silence of a working watch
	 * @return whether the watch is stale
	 */
	public boolean isSilentFor(Duration bound) {
		Duration silent = this.liveness.sinceLastByte(this.takenAt);
		return this.connection.watching() && silent != null && silent.compareTo(bound) > 0;
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
	 * @param watching whether the watch is open, as last sampled or known from a callback
	 * (a list, an error or a silent connection ends it at once): the one answer health,
	 * the {@code informer.watching} gauge and the endpoint give
	 * @param notWatchingSince since when the watch has been known not to be open: since
	 * the end of the last list (the watch opens right after it), or since a sample or an
	 * error found it lost; {@code null} while watching (or before the first list)
	 * @param reconnects how often the watch was lost after the sync, once per loss
	 * however many attempts the reconnect took
	 * @since 0.1.0
	 */
	public record Connection(boolean watching, @Nullable Instant notWatchingSince, long reconnects) {

		/**
		 * Return whether the watch is open: the same answer as {@link #watching()}.
		 * @return whether the watch is open
		 * @deprecated since 0.1.0, fabric8's own flag is no longer a second answer: use
		 * {@link #watching()}
		 */
		@Deprecated(since = "0.1.0", forRemoval = true)
		public boolean open() {
			return this.watching;
		}

	}

	/**
	 * What the cache of a watch holds, and the changes in it listeners have not seen yet.
	 *
	 * @param size the objects cached
	 * @param backlog the changes cached but not yet delivered to listeners: a backlog
	 * that grows when listeners are slower than the changes
	 * @param backlogAtBound whether the backlog was at
	 * {@code informer.listeners.max-backlog}
	 * @param coalesced the changes folded into later changes of the same object because
	 * the backlog was at {@code informer.listeners.max-backlog}
	 * ({@code overflow=coalesce})
	 * @param rejected the turns of delivery the listener executor rejected (a bounded
	 * pool, busy), each retried after a backoff
	 * @param lastResourceVersion the last resourceVersion seen (from an event, a bookmark
	 * or a list)
	 * @since 0.1.0
	 */
	public record Cache(int size, long backlog, boolean backlogAtBound, long coalesced, long rejected,
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
	 * @param undecodable the objects skipped because they do not decode into the
	 * informer's class, by key, until a version of each decodes (never their content)
	 * @since 0.1.0
	 */
	public record Errors(@Nullable WatchError last, int consecutive, List<UndecodableObject> undecodable) {

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

	/**
	 * How far the cache of a watch is behind the API server, from a consistent read of
	 * the server's resourceVersion (a list with {@code limit=1}) every
	 * {@code informer.health.staleness-check-period}. ResourceVersions are compared as
	 * Kubernetes compares them (KEP-5504): as decimal integers when both are, else not at
	 * all ({@code behind} and {@code staleFor} are then {@code null}).
	 *
	 * @param serverResourceVersion the server's resourceVersion at the last read,
	 * {@code null} before the first
	 * @param checkedAt when the server's resourceVersion was last read
	 * @param behind how many resourceVersions (etcd revisions) the cache's is behind the
	 * server's last read, zero when at or past it; an idle watch is behind until its next
	 * bookmark (about a minute), so this alone does not mean stale
	 * @param staleFor how long the cache has been behind a resourceVersion the server
	 * had: the time since the oldest read whose version the cache has not reached yet,
	 * zero when it has reached every one; a healthy watch reaches it by its next event or
	 * bookmark
	 * @param checks the reads of the server's resourceVersion
	 * @param checkFailures the reads that failed
	 * @param lastFailure why the last read failed, {@code null} once one succeeds again
	 * @since 0.1.0
	 */
	public record Lag(@Nullable String serverResourceVersion, @Nullable Instant checkedAt, @Nullable Long behind,
			@Nullable Duration staleFor, long checks, long checkFailures, @Nullable String lastFailure) {

		/**
		 * No read yet.
		 */
		public static final Lag NONE = new Lag(null, null, null, null, 0, 0, null);

	}

}
