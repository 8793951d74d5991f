package dev.informer.runtime.recovery;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The thread of one informer that replaces its fabric8 informers when they stop working
 * (see {@link RecoveryOptions}) and stops a watch whose backlog overflowed: a daemon,
 * none while nothing is pending.
 *
 * @since 0.1.0
 */
public final class RecoveryThread {

	private RecoveryThread() {
	}

	/**
	 * Create the recovery thread of an informer.
	 * @param informer the informer's name
	 * @return the scheduler; its owner shuts it down
	 */
	public static ScheduledExecutorService create(String informer) {
		ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "informer-" + informer + "-recovery");
			thread.setDaemon(true);
			return thread;
		});
		scheduler.setKeepAliveTime(30, TimeUnit.SECONDS);
		scheduler.allowCoreThreadTimeOut(true);
		scheduler.setRemoveOnCancelPolicy(true);
		return scheduler;
	}

}
