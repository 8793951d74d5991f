package dev.informer.watch;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.informer.Informer;
import dev.informer.InformerState;

/**
 * Judges the health of one watch from a {@link WatchSnapshot snapshot} of it.
 * <ul>
 * <li>{@code UP} when synced and watching, and while the watch has been lost for no
 * longer than the grace period: fabric8 closes every watch after 5 to 10 minutes and
 * reconnects in about a second, and after a failure retries with a backoff that doubles
 * from 1 s to 32 s, so brief gaps are routine and must not flap health (nor readiness,
 * which would take the pod out of its Service).</li>
 * <li>{@code DOWN} when the watch has been lost for longer than the grace period, when
 * the informer gave up ({@link InformerState#FAILED}), when it has not synced within the
 * startup timeout, or when the watch keeps failing ({@code WatchFlapping}, as
 * {@link WatchSnapshot.Availability#isFlapping} defines it for recovery too): open less
 * than {@link #FLAPPING_MIN_AVAILABILITY half} of the availability window, and lost at
 * least three times within the grace period, or relisted by fabric8 that often. Recovery
 * judges the same rule over its availability window instead of the grace period, so it
 * replaces such a watch before health reports it down.</li>
 * <li>{@code OUT_OF_SERVICE} before the first sync within the startup timeout, once
 * stopped, and while the backlog is at {@code informer.listeners.max-backlog}
 * ({@code Backlogged}): not ready, which readiness probes answer with 503, yet not
 * broken. A watch whose backlog reached the bound with
 * {@code informer.listeners.overflow=fail} is {@code DOWN}
 * ({@code BacklogOverflow}).</li>
 * <li>{@code OUT_OF_SERVICE} ({@code Stale}) while the watch is open but nothing (no
 * event, no bookmark) has arrived on its connection for longer than
 * {@code informer.health.stale-after}: the API server sends an idle watch a bookmark
 * every minute, so the connection may be dead without having closed, and the cache may
 * miss changes. Readiness only: restarting the pod would not help, and the watch is
 * restarted after {@code informer.reliability.restart-silent-watch-after}.</li>
 * </ul>
 * When the last error was HTTP 403 and the watch is not open, the reason is
 * {@code Forbidden}: an RBAC rule is missing.
 *
 * @since 0.1.0
 */
public final class WatchHealthPolicy {

	/**
	 * The default grace period for a lost watch: 90 s. Longer than fabric8's longest
	 * backoff (32 s) plus the reconnect and a relist of a large collection, shorter than
	 * a typical readiness failure budget of a few minutes.
	 */
	public static final Duration DEFAULT_WATCH_LOSS_GRACE = Duration.ofSeconds(90);

	/**
	 * The share of the availability window below which a watch that keeps being lost is
	 * flapping.
	 */
	public static final double FLAPPING_MIN_AVAILABILITY = 0.5;

	/**
	 * The reason given when the API server denied access.
	 */
	public static final String FORBIDDEN = "Forbidden";

	/**
	 * The reason given while the backlog is at {@code informer.listeners.max-backlog}:
	 * listeners are that many changes behind.
	 */
	public static final String BACKLOGGED = "Backlogged";

	/**
	 * The reason given once a watch stopped because its backlog reached
	 * {@code informer.listeners.max-backlog} with
	 * {@code informer.listeners.overflow=fail}.
	 */
	public static final String BACKLOG_OVERFLOW = "BacklogOverflow";

	/**
	 * The reason given while nothing has arrived on an open watch for longer than
	 * {@code informer.health.stale-after}.
	 */
	public static final String STALE = "Stale";

	/**
	 * The default silence after which an open watch is stale: 65 s, the API server's
	 * bookmark interval of one minute plus 5 s, and 10 s before the default
	 * {@code informer.reliability.restart-silent-watch-after} restarts the watch.
	 */
	public static final Duration DEFAULT_STALE_AFTER = Duration.ofSeconds(65);

	private final Duration staleAfter;

	private final Duration watchLossGrace;

	private final Duration startupTimeout;

	/**
	 * Create a policy.
	 * @param watchLossGrace how long a watch may be lost before health is down
	 * @param startupTimeout how long an informer may take to sync before health is down
	 */
	public WatchHealthPolicy(Duration watchLossGrace, Duration startupTimeout) {
		this(watchLossGrace, startupTimeout, DEFAULT_STALE_AFTER);
	}

	/**
	 * Create a policy.
	 * @param watchLossGrace how long a watch may be lost before health is down
	 * @param startupTimeout how long an informer may take to sync before health is down
	 * @param staleAfter how long nothing may arrive on an open watch before it is stale
	 */
	public WatchHealthPolicy(Duration watchLossGrace, Duration startupTimeout, Duration staleAfter) {
		if (watchLossGrace.isNegative()) {
			throw new IllegalArgumentException("informer.health.watch-loss-grace must not be negative, was "
					+ watchLossGrace + "; use a duration such as 90s");
		}
		if (staleAfter.isNegative() || staleAfter.isZero()) {
			throw new IllegalArgumentException(
					"informer.health.stale-after must be positive, was " + staleAfter + "; use a duration such as 65s");
		}
		this.watchLossGrace = watchLossGrace;
		this.startupTimeout = startupTimeout;
		this.staleAfter = staleAfter;
	}

	/**
	 * Return how long nothing may arrive on an open watch before it is stale.
	 * @return the bound
	 */
	public Duration getStaleAfter() {
		return this.staleAfter;
	}

	/**
	 * Return the grace period for a lost watch.
	 * @return the grace period
	 */
	public Duration getWatchLossGrace() {
		return this.watchLossGrace;
	}

	/**
	 * Return how long an informer may take to sync.
	 * @return the startup timeout
	 */
	public Duration getStartupTimeout() {
		return this.startupTimeout;
	}

	/**
	 * Judge one watch.
	 * @param informer the informer
	 * @param snapshot a snapshot of one of its watches
	 * @param now the current time
	 * @return the health
	 */
	public WatchHealth evaluate(Informer<?> informer, WatchSnapshot snapshot, Instant now) {
		InformerState state = snapshot.lifecycle().state();
		if (state == InformerState.FAILED) {
			WatchError error = snapshot.errors().last();
			return new WatchHealth(WatchHealth.Level.DOWN, (error != null) ? error.reason() : "Failed");
		}
		if (state == InformerState.STOPPED) {
			return new WatchHealth(WatchHealth.Level.OUT_OF_SERVICE, "Stopped");
		}
		if (!snapshot.lifecycle().isSynced()) {
			Instant started = informer.getStartedAt();
			if (started == null) {
				return new WatchHealth(WatchHealth.Level.OUT_OF_SERVICE, "NotStarted");
			}
			boolean late = Duration.between(started, now).compareTo(this.startupTimeout) > 0;
			return new WatchHealth(late ? WatchHealth.Level.DOWN : WatchHealth.Level.OUT_OF_SERVICE,
					isForbidden(snapshot.errors().last(), started) ? FORBIDDEN : (late ? "NotSynced" : "Syncing"));
		}
		if (snapshot.isFlapping(FLAPPING_MIN_AVAILABILITY, this.watchLossGrace)) {
			return new WatchHealth(WatchHealth.Level.DOWN, "WatchFlapping");
		}
		if (snapshot.cache().backlogAtBound()) {
			return new WatchHealth(WatchHealth.Level.OUT_OF_SERVICE, BACKLOGGED);
		}
		if (snapshot.isSilentFor(this.staleAfter)) {
			return new WatchHealth(WatchHealth.Level.OUT_OF_SERVICE, STALE);
		}
		if (snapshot.connection().watching()) {
			return WatchHealth.UP;
		}
		Instant since = snapshot.connection().notWatchingSince();
		if (since == null) {
			// the monitor has not sampled since the watch
			// was lost: the loss has only just begun
			since = now;
		}
		boolean lost = Duration.between(since, now).compareTo(this.watchLossGrace) > 0;
		return new WatchHealth(lost ? WatchHealth.Level.DOWN : WatchHealth.Level.UP,
				isForbidden(snapshot.errors().last(), since) ? FORBIDDEN : (lost ? "WatchLost" : "Reconnecting"));
	}

	// only an error since the watch was lost (or the informer started) explains the loss
	private static boolean isForbidden(@Nullable WatchError error, Instant since) {
		return error != null && error.httpCode() == 403 && !error.at().isBefore(since);
	}

}
