package dev.informer.runtime;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Reads the API server's current resourceVersion for every watch, once a period, on one
 * daemon thread: one consistent list of at most one object per watch, which the watch's
 * status compares with what its cache has reached (see
 * {@link dev.informer.watch.WatchSnapshot.Lag}). Started and stopped by
 * {@link InformerLifecycle}; a zero period turns it off.
 *
 * @since 0.1.0
 */
public final class StalenessCheck {

	/**
	 * The default period: one request per watch a minute, about as often as the API
	 * server sends an idle watch a bookmark, the soonest a healthy cache reaches a
	 * version read before it.
	 */
	public static final Duration DEFAULT_PERIOD = Duration.ofMinutes(1);

	private static final Log logger = LogFactory.getLog(StalenessCheck.class);

	private final DefaultInformerRegistry registry;

	private final Duration period;

	private @Nullable ScheduledExecutorService executor;

	/**
	 * Create a check.
	 * @param registry the informers to check
	 * @param period the time between checks, zero for none
	 */
	public StalenessCheck(DefaultInformerRegistry registry, Duration period) {
		if (period.isNegative()) {
			throw new IllegalArgumentException("Staleness check period must not be negative, was " + period);
		}
		this.registry = registry;
		this.period = period;
	}

	/**
	 * Start checking, if not started and not turned off.
	 */
	public synchronized void start() {
		if (this.executor != null || this.period.isZero() || this.registry.informers().isEmpty()) {
			return;
		}
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "informer-staleness-check");
			thread.setDaemon(true);
			return thread;
		});
		long millis = this.period.toMillis();
		executor.scheduleWithFixedDelay(this::check, millis, millis, TimeUnit.MILLISECONDS);
		this.executor = executor;
	}

	/**
	 * Stop checking. A read in progress is interrupted.
	 */
	public synchronized void stop() {
		ScheduledExecutorService executor = this.executor;
		if (executor != null) {
			executor.shutdownNow();
			this.executor = null;
		}
	}

	/**
	 * Check every informer now.
	 */
	public void check() {
		for (ResourceInformer<?> informer : this.registry.informers()) {
			try {
				informer.checkServerResourceVersions();
			}
			catch (RuntimeException ex) {
				logger.warn("Checking the staleness of informer '" + informer.getName() + "' failed", ex);
			}
		}
	}

}
