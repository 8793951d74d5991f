package dev.informer.runtime.listeners;

/**
 * How many changes one watch may hold for its listeners ({@code informer.listeners.*}),
 * and what happens beyond that.
 *
 * @param maxBacklog the most changes waiting for listeners per watch, in fabric8's queue
 * and the starter's together, before {@code overflow} applies; {@link Long#MAX_VALUE} for
 * no bound
 * @param overflow what happens to changes beyond the bound
 * @since 0.1.0
 */
public record BacklogOptions(long maxBacklog, Overflow overflow) {

	/**
	 * No bound: every change is delivered as it happened, however far listeners fall
	 * behind.
	 */
	public static final BacklogOptions UNBOUNDED = new BacklogOptions(Long.MAX_VALUE, Overflow.COALESCE);

	/**
	 * Create options.
	 * @param maxBacklog the bound, at least 1
	 * @param overflow what happens beyond it
	 */
	public BacklogOptions {
		if (maxBacklog < 1) {
			throw new IllegalArgumentException("maxBacklog must be at least 1, was " + maxBacklog);
		}
	}

	/**
	 * Return whether a backlog of this size is beyond the bound.
	 * @param backlog the changes waiting
	 * @return whether {@code overflow} applies
	 */
	public boolean isExceeded(long backlog) {
		return backlog >= this.maxBacklog;
	}

	/**
	 * What happens to the changes of a watch whose backlog is at its bound.
	 */
	public enum Overflow {

		/**
		 * Keep only the latest state of each object: a change of an object that already
		 * has a change waiting is folded into it, so that listeners get each object's
		 * final state, in order per object, and the event says how many changes it folded
		 * ({@link dev.informer.event.ResourceEvent#getCoalesced()}).
		 */
		COALESCE,

		/**
		 * Stop the watch: its health turns {@code DOWN} with reason
		 * {@code BacklogOverflow} and what was waiting is dropped.
		 */
		FAIL

	}

}
