package dev.informer.test;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A stop of processes that runs once: when its owner closes, or when the JVM exits
 * before, so that no process outlives the JVM that started it.
 */
final class StopAtExit {

	private final Runnable stop;

	private final AtomicBoolean stopped = new AtomicBoolean();

	private final Thread hook;

	/**
	 * Register the stop to run at the JVM's exit.
	 * @param name the name of the shutdown hook's thread
	 * @param stop what stops the processes
	 */
	StopAtExit(String name, Runnable stop) {
		this.stop = stop;
		this.hook = new Thread(this::stopOnce, name);
		Runtime.getRuntime().addShutdownHook(this.hook);
	}

	/**
	 * Stop now, unless stopped already, and no longer at the JVM's exit.
	 */
	void stopNow() {
		stopOnce();
		try {
			Runtime.getRuntime().removeShutdownHook(this.hook);
		}
		catch (IllegalStateException ex) {
			// the JVM is shutting down: the hook runs or has run
		}
	}

	private void stopOnce() {
		if (this.stopped.compareAndSet(false, true)) {
			this.stop.run();
		}
	}

}
