package dev.informer.runtime.recovery;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchSnapshot;

/**
 * Judges, at each sample, whether a synced watch's fabric8 informer still works: one that
 * fabric8 stopped, whose watch keeps failing or that has had no watch for longer than
 * {@link RecoveryOptions#replaceStalledAfter()} is to be replaced. The one judgement for
 * every kind of watch (an informer's, and the shared watch on Namespaces).
 *
 * @since 0.1.0
 */
public final class RecoveryCheck {

	private RecoveryCheck() {
	}

	/**
	 * Judge a watch.
	 * @param watch the watch's status
	 * @param availability the watch's availability window, asked only when needed (a
	 * sample of every watch a few times a second takes no snapshot)
	 * @param source what its current fabric8 informer is doing
	 * @param now the time of the judgement
	 * @param options when to replace
	 * @return the diagnosis
	 */
	public static Diagnosis diagnose(Watch watch, Supplier<WatchSnapshot.Availability> availability, Source source,
			Instant now, RecoveryOptions options) {
		if (!watch.isSynced()) {
			// the initial list is retried by fabric8 until the server answers; startup
			// judges it
			return Diagnosis.NOTHING;
		}
		if (!source.running()) {
			return Diagnosis.replace(RelistReason.STOPPED, "fabric8 stopped the informer");
		}
		Instant listedAt = source.listedAt();
		if (source.listing() || listedAt == null) {
			// listing, or retrying its list until the server answers: a replacement would
			// only start the same list again, from the beginning
			return Diagnosis.NOTHING;
		}
		WatchSnapshot.Availability window = availability.get();
		Instant notWatchingSince = watch.getNotWatchingSince();
		Duration duration = options.availabilityWindow();
		if (window.isFlapping(options.minAvailability(), duration, now)) {
			return Diagnosis.replace(RelistReason.FLAPPING, "the watch keeps failing ("
					+ window.reconnectsWithin(duration, now) + " reconnects in " + duration.toSeconds() + " s)");
		}
		if (notWatchingSince != null) {
			// the watch of this informer cannot have been lost before its last list
			Instant since = notWatchingSince.isAfter(listedAt) ? notWatchingSince : listedAt;
			if (Duration.between(since, now).compareTo(options.replaceStalledAfter()) > 0) {
				return Diagnosis.replace(RelistReason.STALLED,
						"no watch for more than " + options.replaceStalledAfter().toSeconds() + " s");
			}
			return Diagnosis.NOTHING;
		}
		return (window.share() >= 0.9) ? Diagnosis.HEALTHY : Diagnosis.NOTHING;
	}

	/**
	 * What a watch's current fabric8 informer is doing.
	 *
	 * @param running whether fabric8 runs it
	 * @param listing whether it is between the start of a list and its end (retries of a
	 * failed list included)
	 * @param listedAt when it last completed a list, {@code null} before its first
	 */
	public record Source(boolean running, boolean listing, @Nullable Instant listedAt) {

	}

	/**
	 * What to do with a watch.
	 *
	 * @param outcome the outcome
	 * @param reason the relist reason of a replacement, {@code null} otherwise
	 * @param why why, for the log and the state change
	 */
	public record Diagnosis(Outcome outcome, @Nullable RelistReason reason, String why) {

		/**
		 * Nothing to do.
		 */
		public static final Diagnosis NOTHING = new Diagnosis(Outcome.NOTHING, null, "");

		/**
		 * The watch has been open nearly all of the window: the backoff between
		 * replacements starts over.
		 */
		public static final Diagnosis HEALTHY = new Diagnosis(Outcome.HEALTHY, null, "");

		static Diagnosis replace(RelistReason reason, String why) {
			return new Diagnosis(Outcome.REPLACE, reason, why);
		}

	}

	/**
	 * The outcomes of a {@link Diagnosis}.
	 */
	public enum Outcome {

		/** Nothing to do. */
		NOTHING,

		/** Healthy: reset the backoff between replacements. */
		HEALTHY,

		/** Replace the fabric8 informer. */
		REPLACE

	}

}
