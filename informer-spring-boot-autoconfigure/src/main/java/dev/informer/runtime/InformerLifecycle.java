package dev.informer.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeoutException;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.task.TaskDecorator;

import dev.informer.InformerCustomizer;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.listeners.ListenerThreads;
import dev.informer.runtime.namespaces.NamespaceSelectorWatches;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.watch.KubernetesErrors;

/**
 * Starts the informers once every singleton exists (so no listener misses the first
 * events) and before the web server, optionally waiting for them to sync; stops them
 * before the context's beans are destroyed. A {@link WatchMonitor} samples their watches
 * meanwhile.
 *
 * @since 0.1.0
 */
public class InformerLifecycle implements SmartLifecycle {

	/**
	 * The phase: before the web server starts (and after it stops).
	 */
	public static final int PHASE = DeliveryCoordinator.PHASE + 1;

	private static final Log logger = LogFactory.getLog(InformerLifecycle.class);

	private final DefaultInformerRegistry registry;

	private final KubernetesClient client;

	private final InformerEventPublisher publisher;

	private final ApplicationContext context;

	private final List<InformerCustomizer> customizers;

	private final StartupOptions startup;

	private final WatchMonitor monitor;

	private final StartupProgress progress;

	private volatile @Nullable ExecutorService listenerThreads;

	private volatile @Nullable Executor listenerExecutor;

	private volatile @Nullable TaskDecorator taskDecorator;

	private volatile Duration stalenessCheckPeriod = StalenessCheck.DEFAULT_PERIOD;

	private @Nullable StalenessCheck stalenessCheck;

	private volatile boolean running;

	/**
	 * Create the lifecycle.
	 * @param registry the informers
	 * @param client the client they use
	 * @param publisher the publisher to register the context's listeners with
	 * @param context the application context whose listeners receive events
	 * @param customizers customizers applied before each informer starts
	 * @param startup how to wait for the initial sync
	 */
	public InformerLifecycle(DefaultInformerRegistry registry, KubernetesClient client,
			InformerEventPublisher publisher, ApplicationContext context, List<InformerCustomizer> customizers,
			StartupOptions startup) {
		this.registry = registry;
		this.client = client;
		this.publisher = publisher;
		this.context = context;
		this.customizers = List.copyOf(customizers);
		this.startup = startup;
		this.monitor = new WatchMonitor(registry, WatchMonitor.DEFAULT_PERIOD);
		this.progress = new StartupProgress((context instanceof ConfigurableApplicationContext configurable)
				? configurable.getApplicationStartup() : ApplicationStartup.DEFAULT, StartupProgress.DEFAULT_INTERVAL);
	}

	/**
	 * Run listeners on this executor instead of the starter's own threads
	 * ({@code informer.listeners.executor}, or virtual threads). Each watch still runs on
	 * one of its threads at a time, in order; the executor is the application's to shut
	 * down. Applies from the next start.
	 * @param executor the executor, or {@code null} for the starter's own threads
	 */
	public void setListenerExecutor(@Nullable Executor executor) {
		this.listenerExecutor = executor;
	}

	/**
	 * Decorate each task the starter hands to the listener executor: one turn of one
	 * watch, up to 256 of its events in order.
	 * @param taskDecorator the decorator, or {@code null} for none
	 */
	public void setTaskDecorator(@Nullable TaskDecorator taskDecorator) {
		this.taskDecorator = taskDecorator;
	}

	/**
	 * Read the API server's resourceVersion for each watch this often, to tell how far
	 * its cache is behind ({@code informer.health.staleness-check-period}). Applies from
	 * the next start.
	 * @param period the period, zero for no check
	 */
	public void setStalenessCheckPeriod(Duration period) {
		this.stalenessCheckPeriod = period;
	}

	@Override
	public void start() {
		if (TrainingRun.isActive()) {
			// the JVM halts before lifecycles start; a processor that did not must not
			// start informers resolved without the server
			this.running = true;
			return;
		}
		// a context may be stopped and started again: its listeners are registered once
		this.publisher.addListenersOf(this.context);
		List<CompletableFuture<Void>> synced = new ArrayList<>();
		this.running = true;
		ListPermits permits = new ListPermits(this.startup.maxConcurrentLists());
		Executor listenerThreads = listenerThreads();
		// one watch on Namespaces per distinct namespace-selector, however many informers
		// declare it
		NamespaceSelectorWatches selections = new NamespaceSelectorWatches(this.client);
		for (ResourceInformer<?> informer : this.registry.informers()) {
			synced.add(this.progress.listing(informer,
					informer.start(this.client, this.customizers, permits, selections, listenerThreads)));
		}
		this.monitor.start();
		startStalenessCheck();
		if (!this.startup.waitForSync() || synced.isEmpty()) {
			return;
		}
		try {
			awaitSync(synced);
		}
		catch (RuntimeException ex) {
			stopInformers();
			throw ex;
		}
	}

	private Executor listenerThreads() {
		Executor executor = this.listenerExecutor;
		if (executor == null) {
			ExecutorService own = ListenerThreads.create("informer-listener", this.startup.maxListenerThreads());
			this.listenerThreads = own;
			executor = own;
		}
		TaskDecorator decorator = this.taskDecorator;
		if (decorator == null) {
			return executor;
		}
		Executor undecorated = executor;
		return (task) -> undecorated.execute(decorator.decorate(task));
	}

	private void awaitSync(List<CompletableFuture<Void>> synced) {
		CompletableFuture<Void> all = Futures.allOrFirstFailure(synced);
		Duration timeout = this.startup.timeout();
		try {
			this.progress.await(all, timeout, this.registry.informers());
			logger.info("Informers synced: " + String.join(", ", this.registry.names()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw Diagnostics.interrupted(ex);
		}
		catch (ExecutionException ex) {
			throw Diagnostics.startFailure(this.registry.informers(), KubernetesErrors.unwrap(ex));
		}
		catch (TimeoutException ex) {
			String unsynced = Diagnostics.unsynced(this.registry.informers());
			if (this.startup.failOnTimeout()) {
				throw Diagnostics.notSyncedWithin(timeout, unsynced);
			}
			logger.warn("Informers did not sync within " + timeout + "; starting anyway: " + unsynced);
		}
	}

	@Override
	public void stop() {
		stopInformers();
	}

	private void stopInformers() {
		this.running = false;
		this.monitor.stop();
		stopStalenessCheck();
		this.registry.informers().forEach(ResourceInformer::stop);
		ExecutorService listenerThreads = this.listenerThreads;
		if (listenerThreads != null) {
			// a listener still running is interrupted, as a task executor's are
			listenerThreads.shutdownNow();
			this.listenerThreads = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * How startup waits for informers.
	 *
	 * @param waitForSync whether start blocks until every informer synced
	 * @param timeout how long to wait
	 * @param failOnTimeout whether a timeout fails the start
	 * @param maxConcurrentLists how many watches may list at once, {@code 0} for no cap
	 * @param maxListenerThreads how many threads may run listeners at once, over all
	 * informers
	 */
	public record StartupOptions(boolean waitForSync, Duration timeout, boolean failOnTimeout, int maxConcurrentLists,
			int maxListenerThreads) {

		/**
		 * How startup waits for informers, with {@link ListenerThreads#DEFAULT_MAX}
		 * listener threads.
		 * @param waitForSync whether start blocks until every informer synced
		 * @param timeout how long to wait
		 * @param failOnTimeout whether a timeout fails the start
		 * @param maxConcurrentLists how many watches may list at once, {@code 0} for no
		 * cap
		 */
		public StartupOptions(boolean waitForSync, Duration timeout, boolean failOnTimeout, int maxConcurrentLists) {
			this(waitForSync, timeout, failOnTimeout, maxConcurrentLists, ListenerThreads.DEFAULT_MAX);
		}

		/**
		 * How startup waits for informers, with no cap on concurrent initial lists.
		 * @param waitForSync whether start blocks until every informer synced
		 * @param timeout how long to wait
		 * @param failOnTimeout whether a timeout fails the start
		 */
		public StartupOptions(boolean waitForSync, Duration timeout, boolean failOnTimeout) {
			this(waitForSync, timeout, failOnTimeout, 0);
		}

	}

	private synchronized void startStalenessCheck() {
		if (this.stalenessCheck == null) {
			StalenessCheck check = new StalenessCheck(this.registry, this.stalenessCheckPeriod);
			check.start();
			this.stalenessCheck = check;
		}
	}

	private synchronized void stopStalenessCheck() {
		StalenessCheck check = this.stalenessCheck;
		if (check != null) {
			check.stop();
			this.stalenessCheck = null;
		}
	}

}
