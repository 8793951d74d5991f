package dev.informer.runtime.status;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.informer.InformerState;

/**
 * The {@link InformerState} of one watch and since when it holds: {@link #step} is the
 * one place a state changes, one switch from what happened to the state it leads to. A
 * stopped watch stays stopped until {@link #restart restarted}; a step to the current
 * state is none. Guarded by the {@link WatchStatus} in front of it, which fires the
 * changes outside its lock.
 */
final class WatchStateMachine {

	private volatile InformerState state = InformerState.STARTING;

	private volatile Instant since;

	WatchStateMachine(Instant now) {
		this.since = now;
	}

	InformerState state() {
		return this.state;
	}

	Instant since() {
		return this.since;
	}

	/**
	 * Take what happened to the watch.
	 * @param event what happened
	 * @param cause why, as the state change says
	 * @param now when
	 * @return the change, or {@code null} when the state stays
	 */
	@Nullable Change step(Event event, String cause, Instant now) {
		InformerState previous = this.state;
		if (previous == InformerState.STOPPED) {
			return null;
		}
		InformerState next = switch (event) {
			case LIST_STARTED -> InformerState.LISTING;
			case RELIST_STARTED -> InformerState.RELISTING;
			case LIST_COMPLETED -> InformerState.WATCHING;
			case WATCH_RESUMED -> (previous == InformerState.RECONNECTING) ? InformerState.WATCHING : previous;
			case WATCH_LOST -> (previous == InformerState.WATCHING) ? InformerState.RECONNECTING : previous;
			case WATCH_FAILED, WATCH_SILENT, REPLACING -> InformerState.RECONNECTING;
			case GAVE_UP -> InformerState.FAILED;
			case STOPPED -> InformerState.STOPPED;
		};
		if (next == previous) {
			return null;
		}
		this.state = next;
		this.since = now;
		return new Change(previous, next, cause);
	}

	/**
	 * Start over, whatever the state (stopped included), without a change to fire.
	 * @param now the time of the restart
	 */
	void restart(Instant now) {
		this.state = InformerState.STARTING;
		this.since = now;
	}

	/**
	 * What happens to a watch, as far as its state goes.
	 */
	enum Event {

		/** The initial list started. */
		LIST_STARTED,

		/** A list after the initial one started. */
		RELIST_STARTED,

		/** A list completed: the watch opens right after it. */
		LIST_COMPLETED,

		/** A sample found the watch open again. */
		WATCH_RESUMED,

		/** A sample found the watch closed. */
		WATCH_LOST,

		/** The watch failed with an error fabric8 retries. */
		WATCH_FAILED,

		/**
		 * Nothing arrived on the watch connection for too long: it was ended, and fabric8
		 * watches again from its last resourceVersion.
		 */
		WATCH_SILENT,

		/** The fabric8 informer was stopped to be replaced. */
		REPLACING,

		/**
		 * The watch gave up: not retried, a declaration that cannot work, an overflow.
		 */
		GAVE_UP,

		/** The watch was stopped. */
		STOPPED

	}

	/**
	 * A transition.
	 *
	 * @param previous the state before
	 * @param current the state after
	 * @param cause why
	 */
	record Change(InformerState previous, InformerState current, String cause) {

	}

}
