package dev.informer.runtime;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Caps how many watches run their initial list at once, so that an application with
 * hundreds of namespaces and kinds does not send hundreds of LISTs to the API server in
 * the same instant. A watch that cannot start yet waits in line, without a thread.
 *
 * @since 0.1.0
 */
public final class ListPermits {

	/**
	 * No cap.
	 */
	public static final ListPermits UNLIMITED = new ListPermits(0);

	private final int max;

	private final Deque<Runnable> waiting = new ArrayDeque<>();

	private int inUse;

	/**
	 * Create permits.
	 * @param max how many lists may run at once, {@code 0} or less for no cap
	 */
	public ListPermits(int max) {
		this.max = max;
	}

	/**
	 * Run a task now if a permit is free, else once one is released. The task must
	 * {@link #release()} its permit when its list completes or fails.
	 * @param task the task that starts a list
	 */
	void run(Runnable task) {
		if (this.max > 0) {
			synchronized (this) {
				if (this.inUse >= this.max) {
					this.waiting.addLast(task);
					return;
				}
				this.inUse++;
			}
		}
		task.run();
	}

	/**
	 * Release a permit, starting the next waiting task, if any.
	 */
	void release() {
		if (this.max <= 0) {
			return;
		}
		Runnable next;
		synchronized (this) {
			next = this.waiting.pollFirst();
			if (next == null) {
				this.inUse = Math.max(0, this.inUse - 1);
			}
		}
		if (next != null) {
			next.run();
		}
	}

	/**
	 * Return how many lists run now under a permit.
	 * @return the number of permits in use
	 */
	public synchronized int inUse() {
		return this.inUse;
	}

}
