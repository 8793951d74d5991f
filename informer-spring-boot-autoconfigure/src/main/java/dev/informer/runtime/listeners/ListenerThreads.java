package dev.informer.runtime.listeners;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads listeners run on ({@code informer.listeners.max-threads}): at most a fixed
 * number at once, none while idle. Each watch's {@link ListenerQueue} uses one of them at
 * a time, so events of one namespace stay in order however many namespaces wait; a queue
 * with a long backlog hands its thread on now and then, so that others are not starved.
 *
 * @since 0.1.0
 */
public final class ListenerThreads {

	/**
	 * The cap when none is configured.
	 */
	public static final int DEFAULT_MAX = 8;

	private ListenerThreads() {
	}

	/**
	 * Create an executor of at most {@code max} daemon threads, named {@code prefix-N},
	 * that time out after 30 s idle.
	 * @param prefix the thread name prefix
	 * @param max the most threads at once
	 * @return the executor; its owner shuts it down
	 */
	public static ExecutorService create(String prefix, int max) {
		AtomicInteger threads = new AtomicInteger();
		ThreadPoolExecutor executor = new ThreadPoolExecutor(max, max, 30, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(), (runnable) -> {
					Thread thread = new Thread(runnable, prefix + "-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

}
