package dev.informer.runtime.status;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

import dev.informer.watch.EventType;

/**
 * What flows through one watch, counted where it flows, without a lock and without a
 * step: events delivered by type, listener failures, updates {@code on-change} held back,
 * changes folded at the backlog's bound, rejected turns of delivery, messages arriving on
 * the connection, resync cycles, the server's resourceVersion and the objects that do not
 * decode. None of it is the watch's {@link WatchState state}: nothing here changes what
 * the watch is doing, and it is only ever counted up or overwritten.
 */
public final class WatchObservations {

	private final Clock clock;

	private final Map<EventType, LongAdder> events = new ConcurrentHashMap<>();

	private final LongAdder listenerFailures = new LongAdder();

	private final LongAdder filtered = new LongAdder();

	private final LongAdder coalesced = new LongAdder();

	private final LongAdder rejected = new LongAdder();

	private volatile @Nullable Instant lastEventAt;

	private volatile @Nullable Instant lastArrivalAt;

	private volatile @Nullable Instant lastBookmarkAt;

	final ResyncCycles resyncs;

	final StoreLag lag = new StoreLag();

	final UndecodableVersions undecodable = new UndecodableVersions();

	volatile WatchContents contents = WatchContents.NONE;

	WatchObservations(Clock clock, Duration resyncPeriod) {
		this.clock = clock;
		this.resyncs = new ResyncCycles(resyncPeriod);
	}

	/**
	 * Record that the watch connection opened or a message arrived on it: called on the
	 * connection's thread for every message, so it only writes two times.
	 * @param bookmark whether the message was a bookmark
	 */
	public void arrived(boolean bookmark) {
		Instant now = this.clock.instant();
		this.lastArrivalAt = now;
		if (bookmark) {
			this.lastBookmarkAt = now;
		}
	}

	/**
	 * Record an event handed to listeners.
	 * @param type its type
	 * @param failedListeners how many listeners threw
	 */
	public void delivered(EventType type, int failedListeners) {
		Instant now = this.clock.instant();
		this.events.computeIfAbsent(type, (key) -> new LongAdder()).increment();
		if (failedListeners > 0) {
			this.listenerFailures.add(failedListeners);
		}
		this.lastEventAt = now;
		if (type == EventType.RESYNC) {
			this.resyncs.delivered(now);
		}
	}

	/**
	 * Record an update that {@code on-change} held back: cached, not delivered.
	 */
	public void filtered() {
		this.filtered.increment();
	}

	/**
	 * Record changes folded into others because the backlog was at its bound.
	 * @param changes how many
	 */
	public void coalesced(int changes) {
		this.coalesced.add(changes);
	}

	/**
	 * Record a turn of delivery that the listener executor rejected (it is retried).
	 */
	public void rejected() {
		this.rejected.increment();
	}

	/**
	 * Record a read of the API server's current resourceVersion (a consistent list), to
	 * tell how far the cache is behind it.
	 * @param resourceVersion the server's resourceVersion
	 * @param at when the read was sent
	 */
	public void serverResourceVersionRead(String resourceVersion, Instant at) {
		this.lag.read(resourceVersion, at, this.contents.lastResourceVersion());
	}

	/**
	 * Record a read of the API server's current resourceVersion that failed.
	 * @param why what happened
	 */
	public void serverResourceVersionReadFailed(String why) {
		this.lag.failed(why);
	}

	/**
	 * Return the objects skipped because they do not decode.
	 * @return the record of them
	 */
	public UndecodableVersions undecodable() {
		return this.undecodable;
	}

	/**
	 * Connect these observations to what the watch holds now.
	 * @param contents the watch's current fabric8 informer, cache and queue
	 */
	public void contents(WatchContents contents) {
		this.contents = contents;
	}

	/**
	 * Return when something last arrived on the watch connection: it opened, or an event
	 * or a bookmark came.
	 * @return the time, {@code null} before the first connection
	 */
	public @Nullable Instant lastArrivalAt() {
		return this.lastArrivalAt;
	}

	/**
	 * Return when the last bookmark arrived.
	 * @return the time, {@code null} before the first
	 */
	public @Nullable Instant lastBookmarkAt() {
		return this.lastBookmarkAt;
	}

	@Nullable Instant lastEventAt() {
		return this.lastEventAt;
	}

	long listenerFailures() {
		return this.listenerFailures.sum();
	}

	long filteredCount() {
		return this.filtered.sum();
	}

	long coalescedCount() {
		return this.coalesced.sum();
	}

	long rejectedCount() {
		return this.rejected.sum();
	}

	// by tag value, sorted: the order and keys the endpoint shows
	Map<String, Long> events() {
		Map<String, Long> result = new TreeMap<>();
		this.events.forEach((type, adder) -> result.put(type.toString(), adder.sum()));
		return result;
	}

}
