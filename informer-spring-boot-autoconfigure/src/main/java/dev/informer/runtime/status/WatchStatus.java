package dev.informer.runtime.status;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import dev.informer.InformerState;
import dev.informer.watch.EventType;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.ListCycle;
import dev.informer.watch.RelistReason;
import dev.informer.watch.UndecodableObject;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchError;
import dev.informer.watch.WatchSnapshot;

/**
 * Records what one watch (one fabric8 informer: a namespace of an informer, or all of it)
 * does, from fabric8's callbacks and from samples of the watch connection (the runtime's
 * watch monitor), into its {@link WatchStateMachine state}, {@link WatchCounters
 * counters}, {@link AvailabilityWindow availability window} and {@link ResyncCycles
 * resync cycles}; read as {@link WatchSnapshot snapshots}. Never holds resource data.
 * Each thing that happens to a watch is recorded under one lock into all of its parts;
 * the state changes only in {@link WatchStateMachine#step}.
 * <p>
 * Whether the watch is open is sampled, not signalled: fabric8 reports no callback when
 * it closes a watch to rotate it or loses the connection, so {@link #isWatching()} and
 * {@link #getNotWatchingSince()} are as fresh as the last sample (a quarter of a second
 * by default), and a loss shorter than the sampling period may go uncounted in
 * {@link WatchSnapshot.Connection#reconnects()}.
 *
 * @since 0.1.0
 */
public final class WatchStatus implements Watch {

	private final Clock clock;

	private final @Nullable String namespace;

	private final StateListener listener;

	private final WatchStateMachine state;

	private final WatchCounters counters = new WatchCounters();

	private final AvailabilityWindow availability;

	private final ResyncCycles resyncs;

	private volatile @Nullable Instant syncedAt;

	private volatile @Nullable Instant lastEventAt;

	private volatile @Nullable ListCycle lastList;

	private volatile @Nullable Instant listStartedAt;

	// the trigger of the list in progress: fabric8 retries a failed list without a new
	// onBeforeList, and the errors of those attempts must not relabel it
	private volatile RelistReason listTrigger = RelistReason.INITIAL;

	private volatile @Nullable WatchError lastError;

	// whether the last sample (or callback) found the watch open; guarded by this
	private boolean watchSeen;

	private volatile boolean watching;

	private volatile @Nullable Instant notWatchingSince;

	private volatile @Nullable String lastResourceVersion;

	private volatile @Nullable Instant resourceVersionChangedAt;

	private volatile WatchContents contents = WatchContents.NONE;

	private final AtomicLong coalesced = new AtomicLong();

	private final AtomicLong rejected = new AtomicLong();

	private final StoreLag lag = new StoreLag();

	private volatile @Nullable Instant lastArrivalAt;

	private volatile @Nullable Instant lastBookmarkAt;

	// guarded by this
	private long silentRestarts;

	// by key: the objects skipped because they do not decode, until a version decodes
	private final Map<String, UndecodableObject> undecodable = new ConcurrentHashMap<>();

	public WatchStatus(@Nullable String namespace, Duration resyncPeriod, Clock clock, StateListener listener) {
		this(namespace, resyncPeriod, clock, listener, AvailabilityWindow.DEFAULT_SAMPLES);
	}

	public WatchStatus(@Nullable String namespace, Duration resyncPeriod, Clock clock, StateListener listener,
			int availabilitySamples) {
		this.namespace = namespace;
		this.clock = clock;
		this.listener = listener;
		this.state = new WatchStateMachine(clock.instant());
		this.availability = new AvailabilityWindow(availabilitySamples);
		this.resyncs = new ResyncCycles(resyncPeriod);
	}

	@Override
	public @Nullable String getNamespace() {
		return this.namespace;
	}

	@Override
	public WatchSnapshot snapshot() {
		Instant now = this.clock.instant();
		WatchContents contents = this.contents;
		Instant syncedAt = this.syncedAt;
		return new WatchSnapshot(now, this.namespace,
				new WatchSnapshot.Lifecycle(this.state.state(), this.state.since(), syncedAt),
				new WatchSnapshot.Connection(this.watching, this.notWatchingSince, this.counters.reconnects()),
				new WatchSnapshot.Cache(contents.cacheSize(), contents.backlog(), contents.backlogAtBound(),
						this.coalesced.get(), this.rejected.get(), contents.lastResourceVersion()),
				new WatchSnapshot.Lists(this.lastList, this.counters.lists(), this.counters.listTotalTime(),
						this.counters.relists()),
				new WatchSnapshot.Events(this.counters.events(), this.counters.listenerFailures(),
						this.counters.filteredCount(), this.lastEventAt, getLastActivityAt()),
				new WatchSnapshot.Errors(this.lastError, this.counters.consecutiveFailures(), undecodable()),
				this.resyncs.snapshot(syncedAt), this.availability.snapshot(),
				this.lag.snapshot(now, contents.lastResourceVersion()), liveness());
	}

	private synchronized WatchSnapshot.Liveness liveness() {
		return new WatchSnapshot.Liveness(this.lastArrivalAt, this.lastBookmarkAt, this.silentRestarts);
	}

	/**
	 * Return when something last arrived on the watch connection: it opened, or an event
	 * or a bookmark came.
	 * @return the time, {@code null} before the first connection
	 */
	public @Nullable Instant getLastArrivalAt() {
		return this.lastArrivalAt;
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
	 * Record that the watch connection was ended because nothing arrived on it for too
	 * long: fabric8 watches again from its last resourceVersion, without a relist.
	 * @param why what was wrong, as the state change says
	 */
	public void watchSilent(String why) {
		WatchStateMachine.Change change;
		synchronized (this) {
			Instant now = this.clock.instant();
			this.silentRestarts++;
			if (this.watchSeen) {
				this.counters.reconnected();
				this.availability.lost(now);
			}
			notWatching(now);
			change = this.state.step(WatchStateMachine.Event.WATCH_SILENT, why, now);
		}
		fire(change);
	}

	// the values the runtime reads often, without a snapshot

	@Override
	public InformerState getState() {
		return this.state.state();
	}

	@Override
	public boolean isSynced() {
		return this.syncedAt != null;
	}

	@Override
	public boolean isWatching() {
		return this.watching;
	}

	@Override
	public @Nullable Instant getNotWatchingSince() {
		return this.notWatchingSince;
	}

	@Override
	public @Nullable WatchError getLastError() {
		return this.lastError;
	}

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
	 * Record that the watch gave up: an error it does not retry, or a fabric8 informer
	 * that could not be created.
	 * @param cause why, as the state change says
	 */
	public void gaveUp(String cause) {
		step(WatchStateMachine.Event.GAVE_UP, cause);
	}

	/**
	 * Record that the watch's fabric8 informer was stopped to be replaced.
	 * @param delayMillis when the replacement starts
	 * @param why what was wrong with it
	 */
	public void replacing(long delayMillis, String why) {
		step(WatchStateMachine.Event.REPLACING, "replacing in " + delayMillis + " ms: " + why);
	}

	/**
	 * Record that the watch stopped.
	 */
	public void stopped() {
		step(WatchStateMachine.Event.STOPPED, "stopped");
	}

	private void step(WatchStateMachine.Event event, String cause) {
		WatchStateMachine.Change change;
		synchronized (this) {
			change = this.state.step(event, cause, this.clock.instant());
		}
		fire(change);
	}

	/**
	 * Record that a list started.
	 * @param trigger why, as the fabric8 informer knows it (see {@link ListTrigger}); an
	 * initial list whatever it says while the watch has not synced
	 */
	public void listStarted(RelistReason trigger) {
		WatchStateMachine.Change change;
		synchronized (this) {
			Instant now = this.clock.instant();
			this.listStartedAt = now;
			notWatching(now);
			if (isSynced()) {
				this.listTrigger = trigger;
				this.counters.relisted(trigger);
				// only relists fabric8 started by itself; manual ones and replacements
				// are ours
				if (trigger.isByFabric8()) {
					this.availability.relistedByFabric8(now);
				}
				change = this.state.step(WatchStateMachine.Event.RELIST_STARTED, "relist (" + trigger + ")", now);
			}
			else {
				this.listTrigger = RelistReason.INITIAL;
				change = this.state.step(WatchStateMachine.Event.LIST_STARTED, "initial list", now);
			}
		}
		fire(change);
	}

	/**
	 * Record a completed list.
	 * @param items the number of items cached after the list
	 * @return whether this was the first list (the watch just synced)
	 */
	public boolean listCompleted(int items) {
		WatchStateMachine.Change change;
		boolean first;
		synchronized (this) {
			Instant now = this.clock.instant();
			Instant started = this.listStartedAt;
			Duration duration = (started != null) ? Duration.between(started, now) : Duration.ZERO;
			RelistReason trigger = isSynced() ? this.listTrigger : RelistReason.INITIAL;
			this.lastList = new ListCycle((started != null) ? started : now, duration, items, trigger);
			this.counters.listCompleted(duration);
			// the watch opens right after the list: it is not open yet
			notWatching(now);
			first = this.syncedAt == null;
			if (first) {
				this.syncedAt = now;
			}
			String cause = (trigger == RelistReason.INITIAL) ? "initial list" : "relist (" + trigger + ")";
			change = this.state.step(WatchStateMachine.Event.LIST_COMPLETED, cause + " completed", now);
		}
		fire(change);
		return first;
	}

	/**
	 * Record a sample of the watch connection.
	 * @param open whether fabric8's watch is open
	 */
	public void watchObserved(boolean open) {
		WatchStateMachine.Change change = null;
		synchronized (this) {
			if (this.state.state() == InformerState.STOPPED) {
				return;
			}
			Instant now = this.clock.instant();
			this.watching = open;
			this.availability.sample(open);
			if (open) {
				this.notWatchingSince = null;
				if (!this.watchSeen) {
					this.watchSeen = true;
					change = this.state.step(WatchStateMachine.Event.WATCH_RESUMED, "watch re-established", now);
				}
			}
			else if (this.watchSeen) {
				this.watchSeen = false;
				if (this.notWatchingSince == null) {
					this.notWatchingSince = now;
				}
				if (isSynced()) {
					this.counters.reconnected();
					this.availability.lost(now);
					change = this.state.step(WatchStateMachine.Event.WATCH_LOST, "watch closed", now);
				}
			}
		}
		fire(change);
	}

	/**
	 * Return the availability window alone, without a whole snapshot.
	 * @return the window as it is now
	 */
	public WatchSnapshot.Availability availability() {
		return this.availability.snapshot();
	}

	/**
	 * Forget the availability samples: a replaced watch starts a new window.
	 */
	public void resetAvailability() {
		this.availability.reset();
	}

	/**
	 * Record a sample of the last resourceVersion fabric8 has seen.
	 * @param resourceVersion the resource version or {@code null}
	 * @return whether it moved since the last sample
	 */
	public boolean resourceVersionObserved(@Nullable String resourceVersion) {
		if (resourceVersion != null && !resourceVersion.equals(this.lastResourceVersion)) {
			this.lastResourceVersion = resourceVersion;
			this.resourceVersionChangedAt = this.clock.instant();
			return true;
		}
		return false;
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

	public void eventDelivered(EventType type, int failedListeners) {
		Instant now = this.clock.instant();
		this.counters.delivered(type, failedListeners);
		this.lastEventAt = now;
		if (type == EventType.RESYNC) {
			this.resyncs.delivered(now);
		}
	}

	/**
	 * Record an update that {@code on-change} held back: cached, not delivered.
	 */
	public void eventFiltered() {
		this.counters.filtered();
	}

	/**
	 * Record that the watch gave up for a reason of its own, not an API server error.
	 * @param reason the reason, as health gives it
	 * @param message what happened
	 */
	public void failed(String reason, String message) {
		WatchStateMachine.Change change;
		synchronized (this) {
			Instant now = this.clock.instant();
			this.lastError = new WatchError(now, 0, reason, message);
			this.counters.failed();
			change = this.state.step(WatchStateMachine.Event.GAVE_UP, message, now);
		}
		fire(change);
	}

	/**
	 * Record changes folded into others because the backlog was at its bound.
	 * @param changes how many
	 */
	public void coalesced(int changes) {
		this.coalesced.addAndGet(changes);
	}

	/**
	 * Record a turn of delivery that the listener executor rejected (it is retried).
	 */
	public void rejected() {
		this.rejected.incrementAndGet();
	}

	public void errorOccurred(Throwable ex) {
		WatchStateMachine.Change change = null;
		synchronized (this) {
			Instant now = this.clock.instant();
			int code = KubernetesErrors.httpCode(ex);
			this.lastError = new WatchError(now, code, KubernetesErrors.reason(ex), KubernetesErrors.message(ex));
			this.counters.failed();
			if (isSynced() && code != 410) {
				if (this.watchSeen) {
					this.counters.reconnected();
				}
				notWatching(now);
				change = this.state.step(WatchStateMachine.Event.WATCH_FAILED,
						((code != 0) ? "HTTP " + code + " " : "") + KubernetesErrors.reason(ex), now);
			}
		}
		fire(change);
	}

	/**
	 * Record that a customizer's transform failed on an object: the watch goes on.
	 * @param key the object's cache key (namespace/name)
	 * @param ex the failure
	 */
	public void transformFailed(String key, Throwable ex) {
		this.lastError = new WatchError(this.clock.instant(), 0, "TransformFailed", "a transform failed on " + key
				+ " (" + ex.getClass().getName() + "); cached and delivered as it was before that transform");
	}

	/**
	 * Record that an object was skipped because it does not decode.
	 * @param object the object
	 * @return whether this version of it was not known yet
	 */
	public boolean objectSkipped(UndecodableObject object) {
		UndecodableObject previous = this.undecodable.put(object.key(), object);
		return previous == null || !Objects.equals(previous.resourceVersion(), object.resourceVersion());
	}

	/**
	 * Record that an object that did not decode was deleted.
	 * @param key its cache key
	 */
	public void objectDecoded(String key) {
		if (!this.undecodable.isEmpty()) {
			this.undecodable.remove(key);
		}
	}

	/**
	 * Record that a version of an object decoded and was handed on to listeners: it is no
	 * longer skipped, unless a later version was skipped meanwhile (listeners get events
	 * after they were decoded).
	 * @param namespace its namespace, {@code null} for a cluster-scoped object
	 * @param name its name
	 * @param resourceVersion the version that decoded
	 */
	public void objectDecoded(@Nullable String namespace, String name, @Nullable String resourceVersion) {
		if (this.undecodable.isEmpty()) {
			return;
		}
		String key = (namespace != null) ? namespace + "/" + name : name;
		this.undecodable.computeIfPresent(key,
				(skippedKey, skipped) -> isLater(skipped.resourceVersion(), resourceVersion) ? skipped : null);
	}

	/**
	 * Whether a skipped version is later than a decoded one. resourceVersions are opaque
	 * to clients, but an API server backed by etcd numbers them in order; when either is
	 * not a number the decoded one is taken as the later.
	 */
	private static boolean isLater(@Nullable String skipped, @Nullable String decoded) {
		try {
			return skipped != null && decoded != null && Long.parseLong(skipped) > Long.parseLong(decoded);
		}
		catch (NumberFormatException ex) {
			return false;
		}
	}

	/**
	 * Record what a list skipped: all objects that do not decode now.
	 * @param skipped the objects the list skipped
	 * @return those whose version was not known yet
	 */
	public List<UndecodableObject> listSkipped(Collection<UndecodableObject> skipped) {
		List<UndecodableObject> unknown = new ArrayList<>();
		synchronized (this.undecodable) {
			this.undecodable.keySet().retainAll(skipped.stream().map(UndecodableObject::key).toList());
			for (UndecodableObject object : skipped) {
				if (objectSkipped(object)) {
					unknown.add(object);
				}
			}
		}
		return unknown;
	}

	private List<UndecodableObject> undecodable() {
		if (this.undecodable.isEmpty()) {
			return List.of();
		}
		return this.undecodable.values().stream().sorted(Comparator.comparing(UndecodableObject::key)).toList();
	}

	/**
	 * Record that the first list showed the declaration cannot work: the watch goes to
	 * FAILED, with the reason as its last error (health and the endpoint show it).
	 * @param message what is wrong, naming the property
	 */
	public void declarationFailed(String message) {
		this.lastError = new WatchError(this.clock.instant(), 0, "InvalidDeclaration", message);
		step(WatchStateMachine.Event.GAVE_UP, message);
	}

	/**
	 * Start over after a stop: the next list is an initial list again. Counters keep
	 * counting.
	 */
	public void restarted() {
		synchronized (this) {
			this.state.restart(this.clock.instant());
			this.syncedAt = null;
			this.notWatchingSince = null;
			this.watching = false;
			this.watchSeen = false;
		}
		resetAvailability();
	}

	/**
	 * Connect this status to what its watch holds now.
	 * @param contents the watch's current fabric8 informer, cache and queue
	 */
	public void contents(WatchContents contents) {
		this.contents = contents;
	}

	// guarded by this
	private void notWatching(Instant now) {
		this.watchSeen = false;
		this.watching = false;
		if (this.notWatchingSince == null) {
			this.notWatchingSince = now;
		}
	}

	// outside the lock: listeners may take their time or read this status
	private void fire(WatchStateMachine.@Nullable Change change) {
		if (change != null) {
			this.listener.stateChanged(this, change.previous(), change.current(), change.cause());
		}
	}

	/**
	 * Told about every state transition, outside any lock.
	 */
	@FunctionalInterface
	public interface StateListener {

		void stateChanged(WatchStatus status, InformerState previous, InformerState current, String cause);

	}

}
