package dev.informer.runtime;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

import org.jspecify.annotations.Nullable;

import dev.informer.runtime.listeners.ListenerThreads;
import dev.informer.runtime.recovery.RecoveryThread;

/**
 * The threads one start of an informer owns: its recovery thread, and its own listener
 * threads unless listeners run on threads shared with other informers. Shut down when it
 * stops; shared threads are their owner's to shut down.
 */
final class InformerThreads {

	private final ScheduledExecutorService recovery;

	private final Executor listeners;

	private final @Nullable ExecutorService ownListeners;

	/**
	 * Create the threads of one start.
	 * @param informer the informer's name, for thread names
	 * @param sharedListeners where listeners run, shared with other informers, or
	 * {@code null} for threads of this informer's own, at most
	 * {@link ListenerThreads#DEFAULT_MAX} at once
	 */
	InformerThreads(String informer, @Nullable Executor sharedListeners) {
		this.recovery = RecoveryThread.create(informer);
		this.ownListeners = (sharedListeners != null) ? null
				: ListenerThreads.create("informer-" + informer, ListenerThreads.DEFAULT_MAX);
		this.listeners = (sharedListeners != null) ? sharedListeners : this.ownListeners;
	}

	ScheduledExecutorService recovery() {
		return this.recovery;
	}

	Executor listeners() {
		return this.listeners;
	}

	/**
	 * Shut down the recovery thread and the informer's own listener threads: a listener
	 * still running is interrupted, as a task executor's are.
	 */
	void shutDown() {
		this.recovery.shutdownNow();
		if (this.ownListeners != null) {
			this.ownListeners.shutdownNow();
		}
	}

}
