package dev.informer.runtime.status;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.informer.InformerState;

/**
 * The {@link InformerState} of one watch and since when it holds. A stopped watch stays
 * stopped until {@link #restart restarted}; a transition to the current state is none.
 * Guarded by the {@link WatchStatus} in front of it, which fires the changes outside its
 * lock.
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
	 * Move to a state.
	 * @param next the state
	 * @param cause why
	 * @param now the time of the transition
	 * @return the change, or {@code null} when there was none
	 */
	@Nullable Change moveTo(InformerState next, String cause, Instant now) {
		InformerState previous = this.state;
		if (previous == next || previous == InformerState.STOPPED) {
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
	 * A transition.
	 *
	 * @param previous the state before
	 * @param current the state after
	 * @param cause why
	 */
	record Change(InformerState previous, InformerState current, String cause) {

	}

}
