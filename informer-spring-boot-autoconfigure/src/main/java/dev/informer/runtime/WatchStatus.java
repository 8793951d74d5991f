package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

import dev.informer.InformerState;
import dev.informer.watch.EventType;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.ListCycle;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchError;

/**
 * What one watch (one fabric8 informer: a namespace of an informer, or all of it) has done:
 * state, list cycles, resyncs, errors and event counts. Updated from fabric8's callbacks and
 * from samples of the watch connection ({@link WatchMonitor}); read by health, metrics and
 * the actuator endpoint. Never holds resource data.
 * <p>
 * Whether the watch is open is sampled, not signalled: fabric8 reports no callback when it
 * closes a watch to rotate it (every 5 to 10 minutes) or loses the connection, so
 * {@link #isWatching()} and {@link #getNotWatchingSince()} are as fresh as the last sample
 * (about a second), and a loss shorter than the sampling period may go uncounted in
 * {@link #getReconnects()}.
 */
public final class WatchStatus implements Watch {

	private final Clock clock;

	private final @Nullable String namespace;

	private final Duration resyncPeriod;

	private final StateListener listener;

	private volatile InformerState state = InformerState.STARTING;

	private volatile Instant stateSince;

	private volatile @Nullable Instant syncedAt;

	private volatile @Nullable Instant lastEventAt;

	private volatile @Nullable ListCycle lastList;

	private volatile @Nullable Instant listStartedAt;

	private volatile RelistReason nextListTrigger = RelistReason.INITIAL;

	// the trigger of the list in progress: fabric8 retries a failed list without a new
	// onBeforeList, and the errors of those attempts must not relabel it
	private volatile RelistReason listTrigger = RelistReason.INITIAL;

	private volatile @Nullable WatchError lastError;

	private final AtomicInteger consecutiveFailures = new AtomicInteger();

	private final AtomicLong reconnects = new AtomicLong();

	private final Map<RelistReason, LongAdder> relists = new ConcurrentHashMap<>();

	private final Map<EventType, LongAdder> events = new ConcurrentHashMap<>();

	private final LongAdder listenerFailures = new LongAdder();

	private final AtomicLong lists = new AtomicLong();

	private final AtomicLong listNanos = new AtomicLong();

	// whether the last sample (or callback) found the watch open; guarded by this
	private boolean watchSeen;

	private volatile boolean watching;

	private volatile @Nullable Instant notWatchingSince;

	// the last samples of whether the watch was open, oldest overwritten first
	private final boolean[] availability;

	private int availabilityCount;

	private int availabilityNext;

	private final java.util.ArrayDeque<Instant> recentReconnects = new java.util.ArrayDeque<>();

	private final java.util.ArrayDeque<Instant> recentRelists = new java.util.ArrayDeque<>();

	private volatile @Nullable String lastResourceVersion;

	private volatile @Nullable Instant resourceVersionChangedAt;

	private final AtomicLong resyncCycles = new AtomicLong();

	private final AtomicLong resyncNanos = new AtomicLong();

	private volatile @Nullable Instant resyncCycleStartedAt;

	private volatile @Nullable Instant lastResyncAt;

	private volatile Live live = Live.NONE;

	WatchStatus(@Nullable String namespace, Duration resyncPeriod, Clock clock, StateListener listener) {
		this(namespace, resyncPeriod, clock, listener, RecoveryOptions.DEFAULT_AVAILABILITY_SAMPLES);
	}

	WatchStatus(@Nullable String namespace, Duration resyncPeriod, Clock clock, StateListener listener,
			int availabilitySamples) {
		this.availability = new boolean[Math.max(1, availabilitySamples)];
		this.namespace = namespace;
		this.resyncPeriod = resyncPeriod;
		this.clock = clock;
		this.listener = listener;
		this.stateSince = clock.instant();
	}

	/**
	 * Return the namespace, {@code null} for all namespaces or cluster scope.
	 * @return the namespace
	 */
	@Override
	public @Nullable String getNamespace() {
		return this.namespace;
	}

	/**
	 * Return the current state.
	 * @return the state
	 */
	@Override
	public InformerState getState() {
		return this.state;
	}

	/**
	 * Return when the current state began.
	 * @return the time of the last transition
	 */
	@Override
	public Instant getStateSince() {
		return this.stateSince;
	}

	/**
	 * Return whether the initial list has been delivered to listeners.
	 * @return whether synced
	 */
	@Override
	public boolean isSynced() {
		return this.syncedAt != null;
	}

	/**
	 * Return when the initial list had been delivered.
	 * @return the sync time or {@code null}
	 */
	@Override
	public @Nullable Instant getSyncedAt() {
		return this.syncedAt;
	}

	/**
	 * Return whether the watch was open when last sampled.
	 * @return whether watching
	 */
	@Override
	public boolean isWatching() {
		return this.watching;
	}

	/**
	 * Return since when the watch has been known not to be open: since the end of the last
	 * list (the watch opens right after it), or since a sample or an error found it lost.
	 * @return the time, or {@code null} while watching (or before the first list)
	 */
	@Override
	public @Nullable Instant getNotWatchingSince() {
		return this.notWatchingSince;
	}

	/**
	 * Return when the last event was delivered.
	 * @return the time or {@code null}
	 */
	@Override
	public @Nullable Instant getLastEventAt() {
		return this.lastEventAt;
	}

	/**
	 * Return when the watch last made progress: the later of the last delivered event and
	 * the last observed change of resourceVersion (which bookmarks also advance).
	 * @return the time or {@code null}
	 */
	@Override
	public @Nullable Instant getLastActivityAt() {
		Instant event = this.lastEventAt;
		Instant version = this.resourceVersionChangedAt;
		if (event == null) {
			return version;
		}
		return (version != null && version.isAfter(event)) ? version : event;
	}

	/**
	 * Return the last completed list.
	 * @return the list cycle or {@code null}
	 */
	@Override
	public @Nullable ListCycle getLastList() {
		return this.lastList;
	}

	/**
	 * Return the number of completed lists, the initial one included.
	 * @return the list count
	 */
	@Override
	public long getListCount() {
		return this.lists.get();
	}

	/**
	 * Return the time spent in all completed lists.
	 * @return the total list time
	 */
	@Override
	public Duration getListTotalTime() {
		return Duration.ofNanos(this.listNanos.get());
	}

	/**
	 * Return the last error.
	 * @return the error or {@code null}
	 */
	@Override
	public @Nullable WatchError getLastError() {
		return this.lastError;
	}

	/**
	 * Return the number of errors since the last successful list.
	 * @return the consecutive failures
	 */
	@Override
	public int getConsecutiveFailures() {
		return this.consecutiveFailures.get();
	}

	/**
	 * Return how often the watch was lost after the informer had synced. A loss counts once
	 * however many attempts the reconnect takes.
	 * @return the reconnect count
	 */
	@Override
	public long getReconnects() {
		return this.reconnects.get();
	}

	/**
	 * Return the relists after the initial list, by reason ({@code 410}, {@code error},
	 * {@code manual}).
	 * @return relist counts by reason
	 */
	@Override
	public Map<String, Long> getRelists() {
		return sums(this.relists);
	}

	/**
	 * Return the relists of one reason.
	 * @param reason the reason, for example {@link ListCycle#GONE}
	 * @return the count
	 */
	@Override
	public long getRelistCount(RelistReason reason) {
		LongAdder adder = this.relists.get(reason);
		return (adder != null) ? adder.sum() : 0;
	}

	/**
	 * Return the number of relists after the initial list.
	 * @return the relist count
	 */
	@Override
	public long getRelistCount() {
		return this.relists.values().stream().mapToLong(LongAdder::sum).sum();
	}

	/**
	 * Return the events delivered, by type ({@code added}, {@code updated}, {@code deleted},
	 * {@code resync}).
	 * @return event counts by type
	 */
	@Override
	public Map<String, Long> getEvents() {
		return sums(this.events);
	}

	/**
	 * Return the events of one type delivered.
	 * @param type the event type
	 * @return the count
	 */
	@Override
	public long getEventCount(EventType type) {
		LongAdder adder = this.events.get(type);
		return (adder != null) ? adder.sum() : 0;
	}

	/**
	 * Return how often a listener threw.
	 * @return the listener failure count
	 */
	@Override
	public long getListenerFailures() {
		return this.listenerFailures.sum();
	}

	/**
	 * Return the resync period, zero when resync is disabled.
	 * @return the resync period
	 */
	@Override
	public Duration getResyncPeriod() {
		return this.resyncPeriod;
	}

	/**
	 * Return the number of resync cycles: bursts of resync events, one per resync period.
	 * @return the resync cycle count
	 */
	@Override
	public long getResyncCount() {
		return this.resyncCycles.get();
	}

	/**
	 * Return the time spent in all resync cycles, each measured from its first to its last
	 * resync event.
	 * @return the total resync time
	 */
	@Override
	public Duration getResyncTotalTime() {
		return Duration.ofNanos(this.resyncNanos.get());
	}

	/**
	 * Return when the last resync event was delivered.
	 * @return the time or {@code null}
	 */
	@Override
	public @Nullable Instant getLastResyncAt() {
		return this.lastResyncAt;
	}

	/**
	 * Return how long the last (or current) resync cycle took from its first to its last
	 * event.
	 * @return the duration or {@code null} before the first resync
	 */
	@Override
	public @Nullable Duration getLastResyncDuration() {
		Instant started = this.resyncCycleStartedAt;
		Instant last = this.lastResyncAt;
		return (started != null && last != null) ? Duration.between(started, last) : null;
	}

	/**
	 * Return when the next resync is due: a period after the last cycle started, or after
	 * the sync before the first cycle.
	 * @return the time or {@code null} when resync is disabled or the watch has not synced
	 */
	@Override
	public @Nullable Instant getNextResyncAt() {
		if (this.resyncPeriod.isZero()) {
			return null;
		}
		Instant started = this.resyncCycleStartedAt;
		Instant base = (started != null) ? started : this.syncedAt;
		return (base != null) ? base.plus(this.resyncPeriod) : null;
	}

	private static Map<String, Long> sums(Map<?, LongAdder> adders) {
		Map<String, Long> result = new TreeMap<>();
		adders.forEach((key, adder) -> result.put(key.toString(), adder.sum()));
		return result;
	}

	void transition(InformerState next, String cause) {
		Change change;
		synchronized (this) {
			change = setState(next, cause);
		}
		fire(change);
	}

	void listStarted() {
		Change change;
		synchronized (this) {
			Instant now = this.clock.instant();
			this.listStartedAt = now;
			notWatching(now);
			if (isSynced()) {
				RelistReason trigger = this.nextListTrigger;
				this.listTrigger = trigger;
				this.relists.computeIfAbsent(trigger, (key) -> new LongAdder()).increment();
				// only relists fabric8 started by itself; manual ones and replacements are ours
				if (trigger.isByFabric8()) {
					this.recentRelists.addLast(now);
					if (this.recentRelists.size() > this.availability.length) {
						this.recentRelists.removeFirst();
					}
				}
				change = setState(InformerState.RELISTING, "relist (" + trigger + ")");
			}
			else {
				this.listTrigger = RelistReason.INITIAL;
				change = setState(InformerState.LISTING, "initial list");
			}
		}
		fire(change);
	}

	/**
	 * Record a completed list.
	 * @param items the number of items cached after the list
	 * @return whether this was the first list (the watch just synced)
	 */
	boolean listCompleted(int items) {
		Change change;
		boolean first;
		synchronized (this) {
			Instant now = this.clock.instant();
			Instant started = this.listStartedAt;
			Duration duration = (started != null) ? Duration.between(started, now) : Duration.ZERO;
			RelistReason trigger = isSynced() ? this.listTrigger : RelistReason.INITIAL;
			this.lastList = new ListCycle((started != null) ? started : now, duration, items, trigger);
			this.lists.incrementAndGet();
			this.listNanos.addAndGet(duration.toNanos());
			// without an error reported first, fabric8 only lists again after 410 Gone
			this.nextListTrigger = RelistReason.GONE;
			this.consecutiveFailures.set(0);
			// the watch opens right after the list: it is not open yet
			notWatching(now);
			first = this.syncedAt == null;
			if (first) {
				this.syncedAt = now;
			}
			String cause = (trigger == RelistReason.INITIAL) ? "initial list" : "relist (" + trigger + ")";
			change = setState(InformerState.WATCHING, cause + " completed");
		}
		fire(change);
		return first;
	}

	/**
	 * Record a sample of the watch connection.
	 * @param open whether fabric8's watch is open
	 */
	void watchObserved(boolean open) {
		Change change = null;
		synchronized (this) {
			if (this.state == InformerState.STOPPED) {
				return;
			}
			this.watching = open;
			this.availability[this.availabilityNext] = open;
			this.availabilityNext = (this.availabilityNext + 1) % this.availability.length;
			this.availabilityCount = Math.min(this.availabilityCount + 1, this.availability.length);
			if (open) {
				this.notWatchingSince = null;
				if (!this.watchSeen) {
					this.watchSeen = true;
					if (this.state == InformerState.RECONNECTING) {
						change = setState(InformerState.WATCHING, "watch re-established");
					}
				}
			}
			else if (this.watchSeen) {
				this.watchSeen = false;
				if (this.notWatchingSince == null) {
					this.notWatchingSince = this.clock.instant();
				}
				if (isSynced()) {
					this.reconnects.incrementAndGet();
					this.recentReconnects.addLast(this.clock.instant());
					if (this.recentReconnects.size() > this.availability.length) {
						this.recentReconnects.removeFirst();
					}
					if (this.state == InformerState.WATCHING) {
						change = setState(InformerState.RECONNECTING, "watch closed");
					}
				}
			}
		}
		fire(change);
	}

	/**
	 * Return the share of the last samples (one a second, over the availability window) in
	 * which the watch was open, or a negative value until the window is full. A watch the
	 * server keeps failing reconnects every second or so and is open only a fraction of the
	 * time, which a single "not watching since" never shows.
	 * @return the availability between 0 and 1, or -1
	 */
	@Override
	public synchronized double getWatchAvailability() {
		if (this.availabilityCount < this.availability.length) {
			return -1;
		}
		int open = 0;
		for (boolean sample : this.availability) {
			if (sample) {
				open++;
			}
		}
		return (double) open / this.availability.length;
	}

	/**
	 * Return how many times the watch was seen lost within the given window.
	 * @param window the window, ending now
	 * @return the number of observed reconnects
	 */
	@Override
	public synchronized int getReconnectsWithin(Duration window) {
		Instant from = this.clock.instant().minus(window);
		return (int) this.recentReconnects.stream().filter((at) -> at.isAfter(from)).count();
	}

	/**
	 * Return how many relists fabric8 started by itself (after 410 Gone or an error) within
	 * the given window. fabric8 relists at once when
	 * a server ends a watch without a message or answers 410; a server that keeps doing so
	 * makes it relist about once a second while the watch looks open.
	 * @param window the window, ending now
	 * @return the number of relists
	 */
	@Override
	public synchronized int getRelistsWithin(Duration window) {
		Instant from = this.clock.instant().minus(window);
		return (int) this.recentRelists.stream().filter((at) -> at.isAfter(from)).count();
	}

	/**
	 * Forget the availability samples: a replaced watch starts a new window.
	 */
	synchronized void resetAvailability() {
		this.availabilityCount = 0;
		this.availabilityNext = 0;
		this.recentReconnects.clear();
		this.recentRelists.clear();
	}

	/**
	 * Record a sample of the last resourceVersion fabric8 has seen.
	 * @param resourceVersion the resource version or {@code null}
	 */
	void resourceVersionObserved(@Nullable String resourceVersion) {
		if (resourceVersion != null && !resourceVersion.equals(this.lastResourceVersion)) {
			this.lastResourceVersion = resourceVersion;
			this.resourceVersionChangedAt = this.clock.instant();
		}
	}

	void eventDelivered(EventType type, int failedListeners) {
		Instant now = this.clock.instant();
		this.events.computeIfAbsent(type, (key) -> new LongAdder()).increment();
		this.lastEventAt = now;
		if (failedListeners > 0) {
			this.listenerFailures.add(failedListeners);
		}
		if (type == EventType.RESYNC) {
			resyncDelivered(now);
		}
	}

	private synchronized void resyncDelivered(Instant now) {
		Instant previous = this.lastResyncAt;
		// fabric8 replays the whole cache at once each period: a gap of half a period
		// separates two cycles
		Duration gap = this.resyncPeriod.isZero() ? Duration.ofSeconds(1) : this.resyncPeriod.dividedBy(2);
		if (previous == null || Duration.between(previous, now).compareTo(gap) > 0) {
			this.resyncCycles.incrementAndGet();
			this.resyncCycleStartedAt = now;
		}
		else {
			this.resyncNanos.addAndGet(Duration.between(previous, now).toNanos());
		}
		this.lastResyncAt = now;
	}

	void errorOccurred(Throwable ex) {
		Change change = null;
		synchronized (this) {
			Instant now = this.clock.instant();
			int code = KubernetesErrors.httpCode(ex);
			this.lastError = new WatchError(now, code, KubernetesErrors.reason(ex), KubernetesErrors.message(ex));
			this.consecutiveFailures.incrementAndGet();
			this.nextListTrigger = (code == 410) ? RelistReason.GONE : RelistReason.ERROR;
			if (isSynced() && code != 410) {
				if (this.watchSeen) {
					this.reconnects.incrementAndGet();
				}
				notWatching(now);
				change = setState(InformerState.RECONNECTING,
						((code != 0) ? "HTTP " + code + " " : "") + KubernetesErrors.reason(ex));
			}
		}
		fire(change);
	}

	/**
	 * Record that a customizer's transform failed on an object: the watch goes on.
	 * @param key the object's cache key (namespace/name)
	 * @param ex the failure
	 */
	void transformFailed(String key, Throwable ex) {
		this.lastError = new WatchError(this.clock.instant(), 0, "TransformFailed", "a transform failed on " + key
				+ " (" + ex.getClass().getName() + "); cached and delivered as it was before that transform");
	}

	/**
	 * Start over after a stop: the next list is an initial list again. Counters keep
	 * counting.
	 */
	void restarted() {
		synchronized (this) {
			this.state = InformerState.STARTING;
			this.stateSince = this.clock.instant();
			this.syncedAt = null;
			this.nextListTrigger = RelistReason.INITIAL;
			this.notWatchingSince = null;
			this.watching = false;
			this.watchSeen = false;
		}
		resetAvailability();
	}

	void relistRequested(RelistReason reason) {
		this.nextListTrigger = reason;
	}

	// guarded by this
	private void notWatching(Instant now) {
		this.watchSeen = false;
		this.watching = false;
		if (this.notWatchingSince == null) {
			this.notWatchingSince = now;
		}
	}

	// guarded by this
	private @Nullable Change setState(InformerState next, String cause) {
		InformerState previous = this.state;
		if (previous == next || previous == InformerState.STOPPED) {
			return null;
		}
		this.state = next;
		this.stateSince = this.clock.instant();
		return new Change(previous, next, cause);
	}

	// outside the lock: listeners may take their time or read this status
	private void fire(@Nullable Change change) {
		if (change != null) {
			this.listener.stateChanged(this, change.previous(), change.current(), change.cause());
		}
	}

	/**
	 * Connect this status to what its watch holds now.
	 * @param live the watch's current fabric8 informer, cache and queue
	 */
	void live(Live live) {
		this.live = live;
	}

	@Override
	public boolean isOpen() {
		return this.live.isOpen();
	}

	@Override
	public int getCacheSize() {
		return this.live.cacheSize();
	}

	@Override
	public long getBacklog() {
		return this.live.backlog();
	}

	@Override
	public @Nullable String getLastResourceVersion() {
		return this.live.lastResourceVersion();
	}

	private record Change(InformerState previous, InformerState current, String cause) {

	}

	/**
	 * What a watch holds now, read on each call.
	 */
	interface Live {

		/**
		 * A watch that holds nothing (not started).
		 */
		Live NONE = new Live() {
		};

		default boolean isOpen() {
			return false;
		}

		default int cacheSize() {
			return 0;
		}

		default long backlog() {
			return 0;
		}

		default @Nullable String lastResourceVersion() {
			return null;
		}

	}

	/**
	 * Told about every state transition, outside any lock.
	 */
	@FunctionalInterface
	interface StateListener {

		void stateChanged(WatchStatus status, InformerState previous, InformerState current, String cause);

	}

}
