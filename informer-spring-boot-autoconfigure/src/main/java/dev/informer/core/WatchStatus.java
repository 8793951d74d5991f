package dev.informer.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

/**
 * What one watch (one fabric8 informer: a namespace of an informer, or all of it) has done:
 * state, list cycles, errors and event counts. Updated from fabric8's callbacks; read by
 * health, metrics and the actuator endpoint. Never holds resource data.
 */
public final class WatchStatus {

	private final Clock clock;

	private final @Nullable String namespace;

	private volatile InformerState state = InformerState.STARTING;

	private volatile Instant stateSince;

	private volatile @Nullable Instant syncedAt;

	private volatile @Nullable Instant lastEventAt;

	private volatile @Nullable ListCycle lastList;

	private volatile @Nullable Instant listStartedAt;

	private volatile String nextListTrigger = ListCycle.INITIAL;

	private volatile @Nullable ErrorInfo lastError;

	private final AtomicInteger consecutiveFailures = new AtomicInteger();

	private final AtomicLong reconnects = new AtomicLong();

	private final Map<String, LongAdder> relists = new ConcurrentHashMap<>();

	private final Map<String, LongAdder> events = new ConcurrentHashMap<>();

	private final LongAdder listenerFailures = new LongAdder();

	WatchStatus(@Nullable String namespace, Clock clock) {
		this.namespace = namespace;
		this.clock = clock;
		this.stateSince = clock.instant();
	}

	/**
	 * Return the namespace, {@code null} for all namespaces or cluster scope.
	 * @return the namespace
	 */
	public @Nullable String getNamespace() {
		return this.namespace;
	}

	/**
	 * Return the current state.
	 * @return the state
	 */
	public InformerState getState() {
		return this.state;
	}

	/**
	 * Return when the current state began.
	 * @return the time of the last transition
	 */
	public Instant getStateSince() {
		return this.stateSince;
	}

	/**
	 * Return whether the initial list has been delivered to listeners.
	 * @return whether synced
	 */
	public boolean isSynced() {
		return this.syncedAt != null;
	}

	/**
	 * Return when the initial list had been delivered.
	 * @return the sync time or {@code null}
	 */
	public @Nullable Instant getSyncedAt() {
		return this.syncedAt;
	}

	/**
	 * Return when the last event was delivered.
	 * @return the time or {@code null}
	 */
	public @Nullable Instant getLastEventAt() {
		return this.lastEventAt;
	}

	/**
	 * Return the last completed list.
	 * @return the list cycle or {@code null}
	 */
	public @Nullable ListCycle getLastList() {
		return this.lastList;
	}

	/**
	 * Return the last error.
	 * @return the error or {@code null}
	 */
	public @Nullable ErrorInfo getLastError() {
		return this.lastError;
	}

	/**
	 * Return the number of errors since the last successful list or watch event.
	 * @return the consecutive failures
	 */
	public int getConsecutiveFailures() {
		return this.consecutiveFailures.get();
	}

	/**
	 * Return how often the watch was lost and resumed.
	 * @return the reconnect count
	 */
	public long getReconnects() {
		return this.reconnects.get();
	}

	/**
	 * Return the relists after the initial list, by reason ({@code 410}, {@code error},
	 * {@code manual}).
	 * @return relist counts by reason
	 */
	public Map<String, Long> getRelists() {
		return sums(this.relists);
	}

	/**
	 * Return the number of relists after the initial list.
	 * @return the relist count
	 */
	public long getRelistCount() {
		return this.relists.values().stream().mapToLong(LongAdder::sum).sum();
	}

	/**
	 * Return the events delivered, by type ({@code added}, {@code updated}, {@code deleted},
	 * {@code resync}).
	 * @return event counts by type
	 */
	public Map<String, Long> getEvents() {
		return sums(this.events);
	}

	/**
	 * Return the events of one type delivered.
	 * @param type the event type
	 * @return the count
	 */
	public long getEventCount(String type) {
		LongAdder adder = this.events.get(type);
		return (adder != null) ? adder.sum() : 0;
	}

	/**
	 * Return how often a listener threw.
	 * @return the listener failure count
	 */
	public long getListenerFailures() {
		return this.listenerFailures.sum();
	}

	private static Map<String, Long> sums(Map<String, LongAdder> adders) {
		Map<String, Long> result = new java.util.TreeMap<>();
		adders.forEach((key, adder) -> result.put(key, adder.sum()));
		return result;
	}

	void transition(InformerState next) {
		if (this.state != next) {
			this.state = next;
			this.stateSince = this.clock.instant();
		}
	}

	void listStarted() {
		this.listStartedAt = this.clock.instant();
		if (isSynced()) {
			this.relists.computeIfAbsent(this.nextListTrigger, (key) -> new LongAdder()).increment();
			transition(InformerState.RELISTING);
		}
		else {
			transition(InformerState.LISTING);
		}
	}

	/**
	 * Record a completed list.
	 * @param items the number of items cached after the list
	 * @return whether this was the first list (the watch just synced)
	 */
	boolean listCompleted(int items) {
		Instant now = this.clock.instant();
		Instant started = this.listStartedAt;
		Duration duration = (started != null) ? Duration.between(started, now) : Duration.ZERO;
		this.lastList = new ListCycle(started != null ? started : now, duration, items,
				isSynced() ? this.nextListTrigger : ListCycle.INITIAL);
		this.nextListTrigger = ListCycle.ERROR;
		this.consecutiveFailures.set(0);
		transition(InformerState.WATCHING);
		if (this.syncedAt == null) {
			this.syncedAt = now;
			return true;
		}
		return false;
	}

	void eventDelivered(String type, int failedListeners) {
		this.events.computeIfAbsent(type, (key) -> new LongAdder()).increment();
		this.lastEventAt = this.clock.instant();
		if (failedListeners > 0) {
			this.listenerFailures.add(failedListeners);
		}
	}

	void errorOccurred(Throwable ex) {
		int code = KubernetesErrors.httpCode(ex);
		this.lastError = new ErrorInfo(this.clock.instant(), code, KubernetesErrors.reason(ex),
				KubernetesErrors.message(ex));
		this.consecutiveFailures.incrementAndGet();
		this.nextListTrigger = (code == 410) ? ListCycle.GONE : ListCycle.ERROR;
		if (isSynced() && code != 410) {
			this.reconnects.incrementAndGet();
			transition(InformerState.RECONNECTING);
		}
	}

	void relistRequested(String reason) {
		this.nextListTrigger = reason;
	}

	/**
	 * A list cycle.
	 *
	 * @param startedAt when it started
	 * @param duration how long it took
	 * @param items how many objects were cached after it
	 * @param trigger why it ran: {@code initial}, {@code 410}, {@code error} or
	 * {@code manual}
	 */
	public record ListCycle(Instant startedAt, Duration duration, int items, String trigger) {

		static final String INITIAL = "initial";

		static final String GONE = "410";

		static final String ERROR = "error";

		static final String MANUAL = "manual";

	}

	/**
	 * An error seen by the informer.
	 *
	 * @param at when it happened
	 * @param httpCode the HTTP status, 0 when there was none (connection failure)
	 * @param reason the API server's reason, for example {@code Forbidden}
	 * @param message the message
	 */
	public record ErrorInfo(Instant at, int httpCode, String reason, String message) {

	}

}
