package dev.informer.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationContext;
import org.springframework.context.SmartLifecycle;

import dev.informer.InformerCustomizer;
import dev.informer.InformerStartupException;
import dev.informer.InformerState;
import dev.informer.InvalidInformerDeclarationException;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.Watch;

/**
 * Starts the informers once every singleton exists (so no listener misses the first events)
 * and before the web server, optionally waiting for them to sync; stops them before the
 * context's beans are destroyed. A {@link WatchMonitor} samples their watches meanwhile.
 */
public class InformerLifecycle implements SmartLifecycle {

	/**
	 * The phase: before the web server starts (and after it stops).
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 3072;

	private static final Log logger = LogFactory.getLog(InformerLifecycle.class);

	private final DefaultInformerRegistry registry;

	private final KubernetesClient client;

	private final InformerEventPublisher publisher;

	private final ApplicationContext context;

	private final List<InformerCustomizer> customizers;

	private final StartupOptions startup;

	private final WatchMonitor monitor;

	private volatile boolean running;

	private boolean listenersAdded;

	/**
	 * Create the lifecycle.
	 * @param registry the informers
	 * @param client the client they use
	 * @param publisher the publisher to register the context's listeners with
	 * @param context the application context whose listeners receive events
	 * @param customizers customizers applied before each informer starts
	 * @param startup how to wait for the initial sync
	 */
	public InformerLifecycle(DefaultInformerRegistry registry, KubernetesClient client, InformerEventPublisher publisher,
			ApplicationContext context, List<InformerCustomizer> customizers, StartupOptions startup) {
		this.registry = registry;
		this.client = client;
		this.publisher = publisher;
		this.context = context;
		this.customizers = List.copyOf(customizers);
		this.startup = startup;
		this.monitor = new WatchMonitor(registry, WatchMonitor.DEFAULT_PERIOD);
	}

	@Override
	public void start() {
		// a context may be stopped and started again: its listeners are registered once
		if (!this.listenersAdded) {
			this.publisher.addListenersOf(this.context);
			this.listenersAdded = true;
		}
		List<CompletableFuture<Void>> synced = new ArrayList<>();
		this.running = true;
		ListPermits permits = new ListPermits(this.startup.maxConcurrentLists());
		for (ResourceInformer<?> informer : this.registry.informers()) {
			synced.add(informer.start(this.client, this.customizers, permits));
		}
		this.monitor.start();
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

	private void awaitSync(List<CompletableFuture<Void>> synced) {
		CompletableFuture<Void> all = new CompletableFuture<>();
		synced.forEach((future) -> future.whenComplete((ignored, ex) -> {
			if (ex != null) {
				all.completeExceptionally(ex);
			}
		}));
		CompletableFuture.allOf(synced.toArray(CompletableFuture[]::new)).thenRun(() -> all.complete(null));
		Duration timeout = this.startup.timeout();
		try {
			all.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			logger.info("Informers synced: " + String.join(", ", this.registry.names()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new InformerStartupException("Interrupted while waiting for informers to sync",
					"Nothing to do: the application is shutting down.", ex);
		}
		catch (ExecutionException ex) {
			throw startFailure(KubernetesErrors.unwrap(ex));
		}
		catch (TimeoutException ex) {
			String unsynced = describeUnsynced();
			if (this.startup.failOnTimeout()) {
				throw new InformerStartupException(
						"Informers did not sync within " + timeout + " (informer.startup.timeout): " + unsynced,
						"Fix the errors above, raise informer.startup.timeout for very large collections, or set "
								+ "informer.startup.fail-on-timeout=false to start anyway and let the readiness "
								+ "probe report the informers until they sync.",
						null);
			}
			logger.warn("Informers did not sync within " + timeout + "; starting anyway: " + unsynced);
		}
	}

	private RuntimeException startFailure(Throwable cause) {
		int code = KubernetesErrors.httpCode(cause);
		for (ResourceInformer<?> informer : this.registry.informers()) {
			for (Watch status : informer.getWatches()) {
				if (status.getState() == InformerState.FAILED) {
					String where = (status.getNamespace() != null) ? "namespace " + status.getNamespace()
							: (informer.getDefinition().isNamespaced() ? "all namespaces" : "the cluster");
					String resource = informer.getDefinition().getPlural()
							+ (informer.getDefinition().getDeclaration().getGroup().isEmpty() ? ""
									: "." + informer.getDefinition().getDeclaration().getGroup());
					if (code == 403) {
						return new InformerStartupException("Informer '" + informer.getName()
								+ "' is forbidden to list " + resource + " in " + where + " (HTTP 403 Forbidden): "
								+ KubernetesErrors.message(cause),
								"Grant the application's identity 'list' and 'watch' on " + resource + " with this "
										+ Diagnostics.missingRule(informer.getDefinition(), status.getNamespace())
										+ "\nor set informer.startup.fail-on-forbidden=false to start anyway and "
										+ "retry in the background.",
								cause);
					}
					if (code == 400) {
						// the server rejected what was declared (a selector): name the property
						return InvalidInformerDeclarationException
							.rejectedByServer(informer.getDefinition().getDeclaration(),
								KubernetesErrors.serverMessage(cause), cause);
					}
					return new InformerStartupException(
							"Informer '" + informer.getName() + "' failed to list " + resource + " in " + where
									+ ": " + KubernetesErrors.reason(cause) + ": " + KubernetesErrors.message(cause),
							"Check the API server and the application's credentials.", cause);
				}
			}
		}
		return new InformerStartupException("Informers failed to start: " + KubernetesErrors.message(cause),
				"Check the API server and the application's credentials.", cause);
	}

	private String describeUnsynced() {
		return this.registry.informers()
			.stream()
			.flatMap((informer) -> informer.getUnsynced()
				.stream()
				.map((status) -> "'" + informer.getName() + "'"
						+ ((status.getNamespace() != null) ? " in namespace " + status.getNamespace() : "") + " ("
						+ status.getState()
						+ ((status.getLastError() != null) ? ", last error: HTTP " + status.getLastError().httpCode()
								+ " " + status.getLastError().reason() + ": " + status.getLastError().message()
								: ", no error yet")
						+ ")"))
			.collect(Collectors.joining("; "));
	}

	@Override
	public void stop() {
		stopInformers();
	}

	private void stopInformers() {
		this.running = false;
		this.monitor.stop();
		this.registry.informers().forEach(ResourceInformer::stop);
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
	 * @param maxConcurrentLists how many watches may run their initial list at once, {@code 0}
	 * for no cap
	 */
	public record StartupOptions(boolean waitForSync, Duration timeout, boolean failOnTimeout,
			int maxConcurrentLists) {

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

}
