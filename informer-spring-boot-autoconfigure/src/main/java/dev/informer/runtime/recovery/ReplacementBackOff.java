package dev.informer.runtime.recovery;

import org.jspecify.annotations.Nullable;

import org.springframework.util.backoff.BackOffExecution;

/**
 * The backoff between the replacements of one watch ({@link RecoveryOptions#backOff()}):
 * each replacement waits longer than the one before, until the watch is healthy again or
 * the backoff is exhausted, when it starts over. {@link #nextDelay()} is guarded by its
 * watch; {@link #reset()} is one volatile write, safe from the thread that samples the
 * watch without taking the watch's lock.
 *
 * @since 0.1.0
 */
public final class ReplacementBackOff {

	private final RecoveryOptions options;

	private volatile @Nullable BackOffExecution execution;

	/**
	 * Create the backoff of a watch.
	 * @param options the recovery options
	 */
	public ReplacementBackOff(RecoveryOptions options) {
		this.options = options;
	}

	/**
	 * Return how long to wait before the next replacement.
	 * @return the delay in milliseconds
	 */
	public long nextDelay() {
		BackOffExecution execution = this.execution;
		if (execution == null) {
			execution = this.options.backOff().start();
			this.execution = execution;
		}
		long delay = execution.nextBackOff();
		if (delay == BackOffExecution.STOP) {
			execution = this.options.backOff().start();
			this.execution = execution;
			delay = execution.nextBackOff();
		}
		return delay;
	}

	/**
	 * Start over: the watch is healthy again.
	 */
	public void reset() {
		this.execution = null;
	}

}
