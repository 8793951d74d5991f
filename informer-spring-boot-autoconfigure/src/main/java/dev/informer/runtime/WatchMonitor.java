package dev.informer.runtime;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.InformerState;
import dev.informer.runtime.recovery.RecoveryOptions;

/**
 * Samples every informer's watches on one daemon thread: whether each watch is open and
 * the last resourceVersion it has seen. fabric8 signals neither a watch it closes to
 * rotate it nor a lost connection it retries, so sampling is what turns them into
 * {@link InformerState#RECONNECTING}, a reconnect count and a "not watching since" time
 * that health can give grace to, and what finds the watches that keep failing or stalled,
 * which their {@link ResourceInformer} then replaces (see {@link RecoveryOptions}).
 * Started and stopped by {@link InformerLifecycle}.
 *
 * @since 0.1.0
 */
public final class WatchMonitor {

	/**
	 * The default sampling period: often enough to see a watch that a failing server
	 * keeps closing within a second, cheap enough for hundreds of informers (a few
	 * volatile reads each).
	 */
	public static final Duration DEFAULT_PERIOD = Duration.ofMillis(250);

	private static final Log logger = LogFactory.getLog(WatchMonitor.class);

	private final DefaultInformerRegistry registry;

	private final Duration period;

	private @Nullable ScheduledExecutorService executor;

	/**
	 * Create a monitor.
	 * @param registry the informers to sample
	 * @param period the time between samples
	 */
	public WatchMonitor(DefaultInformerRegistry registry, Duration period) {
		if (period.isZero() || period.isNegative()) {
			throw new IllegalArgumentException("Sampling period must be positive, was " + period);
		}
		this.registry = registry;
		this.period = period;
	}

	/**
	 * Start sampling, if not started.
	 */
	public synchronized void start() {
		if (this.executor != null || this.registry.informers().isEmpty()) {
			return;
		}
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "informer-watch-monitor");
			thread.setDaemon(true);
			return thread;
		});
		long millis = this.period.toMillis();
		executor.scheduleWithFixedDelay(this::sample, millis, millis, TimeUnit.MILLISECONDS);
		this.executor = executor;
	}

	/**
	 * Stop sampling. No sample is taken after this returns.
	 */
	public synchronized void stop() {
		ScheduledExecutorService executor = this.executor;
		if (executor != null) {
			executor.shutdownNow();
			try {
				executor.awaitTermination(this.period.toMillis() * 2, TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.executor = null;
		}
	}

	/**
	 * Return whether sampling runs.
	 * @return whether started
	 */
	public synchronized boolean isRunning() {
		return this.executor != null;
	}

	/**
	 * Take one sample of every informer now.
	 */
	public void sample() {
		for (ResourceInformer<?> informer : this.registry.informers()) {
			try {
				informer.sampleWatches();
			}
			catch (RuntimeException ex) {
				// a listener of the state change threw past the publisher: keep sampling
				logger.warn("Sampling informer '" + informer.getName() + "' failed", ex);
			}
		}
	}

}
