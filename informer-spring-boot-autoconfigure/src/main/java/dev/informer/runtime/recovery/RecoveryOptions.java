package dev.informer.runtime.recovery;

import java.time.Duration;

import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * When the starter replaces a fabric8 informer that no longer works, and how long it
 * waits between replacements.
 * <p>
 * fabric8 resumes a lost watch by itself, but it never gives up on a watch the server
 * keeps failing (it reconnects about once a second, forever), stops for good on some
 * errors, and cannot be told apart from a wedged one from the outside. The starter
 * replaces the informer in those cases with a new one seeded from what listeners have
 * seen, so only real differences are delivered, waiting an exponential, jittered backoff
 * between replacements so that a persistently failing server sees a falling request rate.
 *
 * @param replaceStalledAfter replace a watch that has not been open for this long
 * @param availabilityWindow the window over which watch availability is measured
 * @param minAvailability replace a watch that was open for less than this share of the
 * window
 * @param backOff the backoff between consecutive replacements
 * @param restartSilentWatchAfter end a watch connection on which nothing (no event, no
 * bookmark) arrived for this long: fabric8 watches again from its last resourceVersion
 * @since 0.1.0
 */
public record RecoveryOptions(Duration replaceStalledAfter, Duration availabilityWindow, double minAvailability,
		BackOff backOff, Duration restartSilentWatchAfter) {

	/**
	 * The default bound of a silent watch connection: 75 s. The API server sends an idle
	 * watch a bookmark every minute (measured in {@code SilentWatchIT} on 1.37), so a
	 * working watch is never silent that long, and a black-holed one is resumed within 90
	 * s of its last byte (detection, then fabric8's 1 s reconnect).
	 */
	public static final Duration DEFAULT_RESTART_SILENT_WATCH_AFTER = Duration.ofSeconds(75);

	/**
	 * Defaults: replace after 2 minutes without a watch, or when a watch was open for
	 * less than half of the last 60 seconds; back off from 1 s, doubling with jitter, to
	 * 5 minutes; end a watch connection silent for 75 s.
	 */
	public static final RecoveryOptions DEFAULT = new RecoveryOptions(Duration.ofMinutes(2), Duration.ofSeconds(60),
			0.5, backOff(Duration.ofSeconds(1), Duration.ofMinutes(5)));

	/**
	 * Create options that end a silent watch connection after the default bound.
	 * @param replaceStalledAfter replace a watch that has not been open for this long
	 * @param availabilityWindow the window over which watch availability is measured
	 * @param minAvailability replace a watch that was open for less than this share of
	 * the window
	 * @param backOff the backoff between consecutive replacements
	 */
	public RecoveryOptions(Duration replaceStalledAfter, Duration availabilityWindow, double minAvailability,
			BackOff backOff) {
		this(replaceStalledAfter, availabilityWindow, minAvailability, backOff, DEFAULT_RESTART_SILENT_WATCH_AFTER);
	}

	/**
	 * Create Spring's exponential backoff, doubling, with a jitter of half the initial
	 * interval that Spring scales with each doubling: with 1 s the waits fall in 1-1.5 s,
	 * 1-3 s, 2-6 s and so on.
	 * @param initial the first interval
	 * @param max the largest interval
	 * @return the backoff
	 */
	public static BackOff backOff(Duration initial, Duration max) {
		ExponentialBackOff backOff = new ExponentialBackOff(initial.toMillis(), 2.0);
		backOff.setMaxInterval(max.toMillis());
		backOff.setJitter(initial.toMillis() / 2);
		return backOff;
	}

	public int availabilitySamples(Duration samplingPeriod) {
		return (int) Math.max(1, this.availabilityWindow.toMillis() / Math.max(1, samplingPeriod.toMillis()));
	}

}
