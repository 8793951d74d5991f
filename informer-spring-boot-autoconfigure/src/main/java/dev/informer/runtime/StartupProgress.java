package dev.informer.runtime;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;

import dev.informer.watch.Watch;

/**
 * What startup tells about the informers while they list: a {@link StartupStep}
 * {@code informer.list} per informer (ended when it synced or failed) and
 * {@code informer.sync.wait} for the wait, for {@code /actuator/startup}; and, while
 * startup waits, a progress line per informer that has not synced after
 * {@link #DEFAULT_INTERVAL} and every interval after that, with the objects cached so
 * far.
 */
final class StartupProgress {

	/**
	 * How long an informer may list before startup logs its progress, and how often
	 * after.
	 */
	static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

	private static final Log logger = LogFactory.getLog(StartupProgress.class);

	private final ApplicationStartup startup;

	private final Duration interval;

	StartupProgress(ApplicationStartup startup, Duration interval) {
		this.startup = startup;
		this.interval = interval;
	}

	/**
	 * Record the list of an informer as a startup step that ends with its sync.
	 * @param informer the informer just started
	 * @param synced completes when it synced
	 * @return a future that completes as {@code synced} does, once the step ended: what
	 * waits for it sees every list's step
	 */
	CompletableFuture<Void> listing(ResourceInformer<?> informer, CompletableFuture<Void> synced) {
		StartupStep step = this.startup.start("informer.list")
			.tag("informer", informer.getName())
			.tag("watches", String.valueOf(informer.getWatches().size()));
		return synced.whenComplete((ignored, ex) -> {
			step.tag("outcome", (ex != null) ? "failed" : "synced");
			step.tag("objects", String.valueOf(objects(informer)));
			step.end();
		});
	}

	/**
	 * Wait for every informer to sync, logging the progress of those that take longer
	 * than the interval.
	 * @param all completes when every informer synced
	 * @param timeout how long to wait in all
	 * @param informers the informers waited for
	 * @throws InterruptedException if interrupted
	 * @throws ExecutionException if an informer failed
	 * @throws TimeoutException if they did not sync within the timeout
	 */
	void await(CompletableFuture<Void> all, Duration timeout, Collection<ResourceInformer<?>> informers)
			throws InterruptedException, ExecutionException, TimeoutException {
		StartupStep step = this.startup.start("informer.sync.wait").tag("timeout", timeout.toString());
		long start = System.nanoTime();
		long deadline = start + timeout.toNanos();
		try {
			while (true) {
				long remaining = deadline - System.nanoTime();
				if (remaining <= 0) {
					throw new TimeoutException();
				}
				try {
					all.get(Math.min(remaining, this.interval.toNanos()), TimeUnit.NANOSECONDS);
					step.tag("outcome", "synced");
					return;
				}
				catch (TimeoutException ex) {
					if (deadline - System.nanoTime() > 0) {
						logProgress(informers, Duration.ofNanos(System.nanoTime() - start));
					}
				}
			}
		}
		catch (TimeoutException | ExecutionException | RuntimeException ex) {
			step.tag("outcome", (ex instanceof TimeoutException) ? "timeout" : "failed");
			throw ex;
		}
		finally {
			step.end();
		}
	}

	private void logProgress(Collection<ResourceInformer<?>> informers, Duration waited) {
		for (ResourceInformer<?> informer : informers) {
			List<Watch> watches = informer.getWatches();
			long synced = watches.stream().filter(Watch::isSynced).count();
			if (!informer.isSynced() && logger.isInfoEnabled()) {
				logger.info("Informer " + informer.getName() + " still listing after " + waited.toSeconds() + " s: "
						+ objects(informer) + " objects cached so far, " + synced + " of " + watches.size()
						+ ((watches.size() == 1) ? " watch" : " watches") + " synced");
			}
		}
	}

	private static long objects(ResourceInformer<?> informer) {
		return informer.getWatches().stream().mapToLong((watch) -> watch.snapshot().cache().size()).sum();
	}

}
