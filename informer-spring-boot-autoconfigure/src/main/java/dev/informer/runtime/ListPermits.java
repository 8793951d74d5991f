package dev.informer.runtime;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Caps how many watches list at once (initial lists, relists, replacements), so that an
 * application with hundreds of namespaces and kinds does not send hundreds of LISTs to
 * the API server in the same instant. A watch that cannot start yet waits in line,
 * without a thread.
 *
 * @since 0.1.0
 */
public final class ListPermits {

	/**
	 * No cap.
	 */
	public static final ListPermits UNLIMITED = new ListPermits(0);

	private static final Log logger = LogFactory.getLog(ListPermits.class);

	private final int max;

	private final Deque<Runnable> waiting = new ArrayDeque<>();

	private int inUse;

	/** Releases not yet passed on: counted while a release starts the waiting tasks. */
	private int releases;

	/** Whether a release is starting waiting tasks now. */
	private boolean starting;

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
	 * Return an action that {@link #release releases} one permit the first time it runs
	 * and does nothing after: for a permit that more than one path may give back (a
	 * generation whose list ends, and a start that fails before it).
	 * @return the action
	 */
	Runnable releaseOnce() {
		AtomicBoolean done = new AtomicBoolean();
		return () -> {
			if (done.compareAndSet(false, true)) {
				release();
			}
		};
	}

	/**
	 * Release a permit, starting the next waiting task, if any. Never runs a task on the
	 * stack of another: a task that releases its permit synchronously (its start failed)
	 * while tasks are being started only counts the release, and the loop that started it
	 * starts the next, so thousands of such tasks need no deeper stack than one.
	 */
	void release() {
		if (this.max <= 0) {
			return;
		}
		synchronized (this) {
			this.releases++;
			if (this.starting) {
				return;
			}
			this.starting = true;
		}
		while (true) {
			Runnable next;
			synchronized (this) {
				if (this.releases == 0) {
					this.starting = false;
					return;
				}
				this.releases--;
				next = this.waiting.pollFirst();
				if (next == null) {
					this.inUse = Math.max(0, this.inUse - 1);
					continue;
				}
			}
			try {
				next.run();
			}
			catch (RuntimeException ex) {
				logger.warn("A list waiting for its permit failed to start", ex);
			}
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
