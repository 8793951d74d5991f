package dev.informer.runtime.status;

import org.jspecify.annotations.Nullable;

import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.RelistReason;

/**
 * What can happen to a watch, as far as its state goes: each is posted to the watch's
 * {@link WatchStatus} and taken by {@link WatchTransitions#step}, the one function that
 * changes a watch's state. Counts of what flows through a watch (events, skipped objects,
 * arrivals) are not inputs: they are {@link WatchObservations}.
 */
public sealed interface WatchInput {

	/**
	 * A list started: the initial list, or a relist once the watch has synced.
	 *
	 * @param trigger why, as the fabric8 informer knows it (see {@link ListTrigger})
	 */
	record ListStarted(RelistReason trigger) implements WatchInput {
	}

	/**
	 * A list completed: the watch opens right after it.
	 *
	 * @param items the number of items cached after the list
	 */
	record ListCompleted(int items) implements WatchInput {
	}

	/**
	 * A sample of the fabric8 informer, taken by the watch monitor: fabric8 reports no
	 * callback when a watch closes, so whether it is open is sampled.
	 *
	 * @param open whether its watch is open
	 * @param resourceVersion the last resourceVersion it has seen, or {@code null}
	 */
	record Sampled(boolean open, @Nullable String resourceVersion) implements WatchInput {
	}

	/**
	 * The watch connection was ended because nothing arrived on it for too long: fabric8
	 * watches again from its last resourceVersion, without a relist.
	 *
	 * @param why what was wrong, as the state change says
	 */
	record Silent(String why) implements WatchInput {
	}

	/**
	 * An API server error on the watch or a list, which fabric8 retries.
	 *
	 * @param code the HTTP status, {@code 0} when there was none
	 * @param reason the reason, as health gives it
	 * @param message what happened, without resource data
	 */
	record Failed(int code, String reason, String message) implements WatchInput {

		/**
		 * Describe an error as health gives it.
		 * @param ex the error
		 * @return the input
		 */
		public static Failed of(Throwable ex) {
			return new Failed(KubernetesErrors.httpCode(ex), KubernetesErrors.reason(ex), KubernetesErrors.message(ex));
		}

	}

	/**
	 * The watch gave up: an error it does not retry, a fabric8 informer that could not be
	 * created, a declaration that cannot work, an overflow.
	 *
	 * @param cause why, as the state change says
	 * @param errorReason the reason to record as the last error (with the cause as its
	 * message), or {@code null} when an API server error was recorded already
	 */
	record GaveUp(String cause, @Nullable String errorReason) implements WatchInput {
	}

	/**
	 * Something went wrong that the watch goes on after, such as a transform that failed
	 * on one object: recorded as the last error, the state stays.
	 *
	 * @param reason the reason, as health gives it
	 * @param message what happened, without resource data
	 */
	record Noted(String reason, String message) implements WatchInput {
	}

	/**
	 * The watch's fabric8 informer was stopped to be replaced.
	 *
	 * @param delayMillis when the replacement starts
	 * @param why what was wrong with it
	 */
	record Replacing(long delayMillis, String why) implements WatchInput {
	}

	/**
	 * The replacement starts: its availability window starts empty.
	 */
	record Replaced() implements WatchInput {
	}

	/**
	 * The watch stopped; it stays stopped until restarted.
	 */
	record Stopped() implements WatchInput {
	}

	/**
	 * The watch starts over after a stop: the next list is an initial list again.
	 */
	record Restarted() implements WatchInput {
	}

}
