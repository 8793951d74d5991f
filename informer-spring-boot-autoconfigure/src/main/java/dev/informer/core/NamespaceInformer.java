package dev.informer.core;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.backoff.BackOffExecution;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;

/**
 * One watch behind a {@link ResourceInformer}: the whole informer, or one of its namespaces.
 * Runs a fabric8 informer and turns its callbacks into events and status; a relist replaces
 * that fabric8 informer by a new one seeded with what listeners have seen.
 *
 * @param <T> the resource type
 */
final class NamespaceInformer<T extends HasMetadata> {

	private static final Log logger = LogFactory.getLog(ResourceInformer.class);

	/** How long a relist waits for the event being delivered to reach every listener. */
	private static final long DELIVERY_WAIT_SECONDS = 5;

	private final ResourceInformer<T> owner;

	private final InformerDefinition<T> definition;

	private final @Nullable String namespace;

	private final WatchStatus status;

	private final CompletableFuture<Void> synced = new CompletableFuture<>();

	private volatile @Nullable KubernetesClient client;

	private volatile List<InformerCustomizer> customizers = List.of();

	private volatile @Nullable Generation current;

	private volatile boolean closed;

	private final Clock clock;

	private @Nullable BackOffExecution backOff;

	private @Nullable ScheduledFuture<?> pendingReplacement;

	NamespaceInformer(ResourceInformer<T> owner, @Nullable String namespace, Clock clock) {
		this.owner = owner;
		this.definition = owner.getDefinition();
		this.namespace = namespace;
		this.clock = clock;
		this.status = new WatchStatus(namespace, this.definition.getDeclaration().getResyncPeriod(), clock,
				owner::stateChanged, owner.getRecovery().availabilitySamples(WatchMonitor.DEFAULT_PERIOD));
	}

	@Nullable String getNamespace() {
		return this.namespace;
	}

	WatchStatus getStatus() {
		return this.status;
	}

	CompletableFuture<Void> synced() {
		return this.synced;
	}

	@Nullable CachingItemStore<T> store() {
		Generation generation = this.current;
		return (generation != null) ? generation.store : null;
	}

	@Nullable SharedIndexInformer<T> informer() {
		Generation generation = this.current;
		return (generation != null) ? generation.informer : null;
	}

	boolean isWatching() {
		SharedIndexInformer<T> informer = informer();
		return informer != null && informer.isWatching();
	}

	long backlog() {
		Generation generation = this.current;
		return (generation != null) ? generation.tracker.backlog() : 0;
	}

	synchronized CompletableFuture<Void> start(KubernetesClient client, List<InformerCustomizer> customizers) {
		this.client = client;
		this.customizers = List.copyOf(customizers);
		Generation generation = new Generation(client, this.customizers);
		generation.start();
		this.current = generation;
		return this.synced;
	}

	/**
	 * Replace the fabric8 informer by a new one seeded with what listeners have seen, so that
	 * its list delivers only the differences: unchanged objects (same resourceVersion) cause
	 * no event, changed ones an update, vanished ones a delete with final state unknown.
	 * Changes the old informer had queued but not delivered are delivered by the new one. An
	 * event being delivered is let reach every listener first (for up to
	 * {@value #DELIVERY_WAIT_SECONDS} s; a listener slower than that may see that change again).
	 * @param trigger the reason, counted as the relist's trigger
	 * @return a future that completes when the new informer has listed
	 */
	synchronized CompletableFuture<Void> relist(String trigger) {
		KubernetesClient client = this.client;
		Generation old = this.current;
		if (this.closed || client == null || old == null) {
			throw new IllegalStateException("Informer '" + this.definition.getName() + "' is not running");
		}
		ScheduledFuture<?> pending = this.pendingReplacement;
		if (pending != null) {
			pending.cancel(false);
			this.pendingReplacement = null;
		}
		Generation next = new Generation(client, this.customizers);
		next.seed(old.retireAfterDelivery(Duration.ofSeconds(DELIVERY_WAIT_SECONDS)));
		this.status.relistRequested(trigger);
		next.start();
		this.current = next;
		return next.listed;
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private SharedIndexInformer<T> createInformer(KubernetesClient client) {
		MixedOperation<T, ?, ?> operation = this.definition.isGeneric()
				? (MixedOperation) client.genericKubernetesResources(this.definition.toContext())
				: client.resources(this.definition.getResourceClass());
		FilterWatchListDeletable<T, ?, ?> filtered;
		if (this.namespace != null) {
			filtered = operation.inNamespace(this.namespace);
		}
		else if (this.definition.isNamespaced()) {
			filtered = operation.inAnyNamespace();
		}
		else {
			filtered = operation;
		}
		InformerDeclaration declaration = this.definition.getDeclaration();
		if (declaration.getLabelSelector() != null) {
			filtered = filtered.withLabelSelector(declaration.getLabelSelector());
		}
		if (declaration.getFieldSelector() != null) {
			// the whole selector as one key without a value, which fabric8 sends as it is: its
			// map by field would keep one requirement per field and not escape values
			filtered = filtered.withField(Selectors.fieldSelectorQuery(declaration.getFieldSelector()), null);
		}
		Long limit = (declaration.getListPageSize() > 0) ? declaration.getListPageSize() : null;
		return filtered.withLimit(limit).runnableInformer(declaration.getResyncPeriod().toMillis());
	}

	synchronized void stop() {
		this.closed = true;
		ScheduledFuture<?> pending = this.pendingReplacement;
		if (pending != null) {
			pending.cancel(false);
			this.pendingReplacement = null;
		}
		Generation generation = this.current;
		if (generation != null) {
			generation.retire();
		}
		this.status.transition(InformerState.STOPPED, "stopped");
		this.synced.cancel(false);
	}

	/**
	 * Sample the watch connection and the last resourceVersion into the status.
	 */
	void sample() {
		Generation generation = this.current;
		if (this.closed || generation == null) {
			return;
		}
		this.status.watchObserved(generation.informer.isWatching());
		this.status.resourceVersionObserved(generation.informer.lastSyncResourceVersion());
		checkRecovery(generation);
	}

	private void checkRecovery(Generation generation) {
		if (!this.status.isSynced() || generation.retired) {
			return;
		}
		RecoveryOptions recovery = this.owner.getRecovery();
		Instant notWatchingSince = this.status.getNotWatchingSince();
		if (!generation.informer.isRunning()) {
			scheduleReplacement(WatchStatus.ListCycle.STOPPED, "fabric8 stopped the informer");
		}
		else if (this.status.isFlapping(recovery.minAvailability(), recovery.availabilityWindow())) {
			scheduleReplacement(WatchStatus.ListCycle.FLAPPING, "the watch keeps failing ("
					+ this.status.getReconnectsWithin(recovery.availabilityWindow()) + " reconnects in "
					+ recovery.availabilityWindow().toSeconds() + " s)");
		}
		else if (notWatchingSince != null && Duration.between(notWatchingSince, this.clock.instant())
			.compareTo(recovery.replaceStalledAfter()) > 0) {
			scheduleReplacement(WatchStatus.ListCycle.STALLED,
					"no watch for more than " + recovery.replaceStalledAfter().toSeconds() + " s");
		}
		else if (this.status.getWatchAvailability() >= 0.9) {
			resetBackOff();
		}
	}

	private synchronized void resetBackOff() {
		this.backOff = null;
	}

	/**
	 * Stop the current fabric8 informer now and start a replacement, seeded with what
	 * listeners have seen, after the next backoff interval. The old cache stays readable
	 * meanwhile and nothing is requested from the API server.
	 */
	synchronized void scheduleReplacement(String reason, String why) {
		ScheduledExecutorService scheduler = this.owner.getScheduler();
		Generation generation = this.current;
		if (this.closed || scheduler == null || generation == null || this.pendingReplacement != null) {
			return;
		}
		if (this.backOff == null) {
			this.backOff = this.owner.getRecovery().backOff().start();
		}
		long delay = this.backOff.nextBackOff();
		if (delay == BackOffExecution.STOP) {
			this.backOff = this.owner.getRecovery().backOff().start();
			delay = this.backOff.nextBackOff();
		}
		generation.retire();
		this.status.transition(InformerState.RECONNECTING, "replacing in " + delay + " ms: " + why);
		logger.warn("Informer '" + this.definition.getName() + "'"
				+ ((this.namespace != null) ? " in namespace " + this.namespace : "") + ": " + why
				+ "; replacing it with a fresh informer in " + delay + " ms");
		this.pendingReplacement = scheduler.schedule(() -> replace(reason), delay, TimeUnit.MILLISECONDS);
	}

	private synchronized void replace(String reason) {
		this.pendingReplacement = null;
		if (this.closed) {
			return;
		}
		try {
			this.status.resetAvailability();
			relist(reason);
		}
		catch (RuntimeException ex) {
			logger.warn("Replacing informer '" + this.definition.getName() + "' failed; trying again", ex);
			scheduleReplacement(reason, "the replacement failed: " + ex.getMessage());
		}
	}

	private static String describe(Throwable ex) {
		int code = KubernetesErrors.httpCode(ex);
		return ((code != 0) ? "HTTP " + code + " " : "") + KubernetesErrors.reason(ex) + ": "
				+ KubernetesErrors.message(ex);
	}

	/**
	 * One fabric8 informer with its cache. Once retired (stopped or replaced by a relist) it
	 * no longer touches the status nor delivers events.
	 */
	private final class Generation implements ResourceEventHandler<T>, ExceptionHandler {

		private final SharedIndexInformer<T> informer;

		private final CachingItemStore<T> store;

		private final DeliveryTracker<T> tracker = new DeliveryTracker<>();

		private final CompletableFuture<Void> listed = new CompletableFuture<>();

		/** Held while an event is delivered, so that a relist can wait for it. */
		private final ReentrantLock delivery = new ReentrantLock();

		private volatile boolean retired;

		Generation(KubernetesClient client, List<InformerCustomizer> customizers) {
			this.informer = createInformer(client);
			List<Consumer<? super T>> transforms = new ArrayList<>();
			Spec spec = new Spec(this.informer, transforms);
			for (InformerCustomizer customizer : customizers) {
				customizer.customize(spec);
			}
			boolean strip = NamespaceInformer.this.definition.getDeclaration().isStripManagedFields();
			this.store = new CachingItemStore<>(strip, transforms, this.tracker);
			this.informer.itemStore(this.store);
			this.informer.exceptionHandler(this);
			this.informer.addEventHandler(this);
		}

		void seed(Collection<T> initialState) {
			this.store.expectInitialState(initialState);
			// fabric8 then lists afresh (not from the watch cache) and compares resourceVersions
			this.informer.initialState(List.copyOf(initialState).stream());
		}

		void start() {
			// fabric8 stops an informer for good on some errors: replace it, do not let it
			// sit dead while health says UP
			this.informer.stopped().whenComplete((result, ex) -> {
				if (isActive() && NamespaceInformer.this.status.isSynced()) {
					scheduleReplacement(WatchStatus.ListCycle.STOPPED, "fabric8 stopped the informer"
							+ ((ex != null) ? " (" + describe(KubernetesErrors.unwrap(ex)) + ")" : ""));
				}
			});
			this.informer.start().whenComplete((result, ex) -> {
				if (ex != null && isActive()) {
					Throwable cause = KubernetesErrors.unwrap(ex);
					NamespaceInformer.this.status.transition(InformerState.FAILED, describe(cause));
					this.listed.completeExceptionally(cause);
					NamespaceInformer.this.synced.completeExceptionally(cause);
				}
			});
		}

		void retire() {
			this.retired = true;
			this.informer.stop();
			this.listed.cancel(false);
		}

		/**
		 * Retire once the event being delivered, if any, has reached every listener, and
		 * return what listeners have seen. Without the wait, an event delivered while the
		 * cache was read would count as not seen and be delivered again by the next informer.
		 * @param wait how long to wait for a listener
		 * @return the objects listeners have seen
		 */
		Collection<T> retireAfterDelivery(Duration wait) {
			boolean locked = false;
			try {
				locked = this.delivery.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			try {
				retire();
				return this.tracker.seenByListeners(this.store.snapshot()).values();
			}
			finally {
				if (locked) {
					this.delivery.unlock();
				}
			}
		}

		private boolean isActive() {
			return !this.retired && !NamespaceInformer.this.closed;
		}

		@Override
		public void onBeforeList(String resourceVersion) {
			if (isActive()) {
				NamespaceInformer.this.status.listStarted();
			}
		}

		@Override
		public void onList(String resourceVersion, boolean remainedEmpty) {
			if (!isActive()) {
				return;
			}
			if (NamespaceInformer.this.status.listCompleted(this.store.size())) {
				// publish the synced event first: startup waits on this future, and listeners
				// of that event must be done before the application goes on
				NamespaceInformer.this.owner.namespaceSynced();
				NamespaceInformer.this.synced.complete(null);
			}
			this.listed.complete(null);
		}

		@Override
		public void onAdd(T resource) {
			deliver(EventTypes.ADDED, new ResourceAddedEvent<>(NamespaceInformer.this.definition.getName(),
					NamespaceInformer.this.definition.getResourceClass(), resource));
		}

		@Override
		public void onUpdate(T oldResource, T newResource) {
			ResourceUpdatedEvent<T> event = new ResourceUpdatedEvent<>(NamespaceInformer.this.definition.getName(),
					NamespaceInformer.this.definition.getResourceClass(), oldResource, newResource);
			deliver(event.isResync() ? EventTypes.RESYNC : EventTypes.UPDATED, event);
		}

		@Override
		public void onDelete(T resource, boolean deletedFinalStateUnknown) {
			deliver(EventTypes.DELETED, new ResourceDeletedEvent<>(NamespaceInformer.this.definition.getName(),
					NamespaceInformer.this.definition.getResourceClass(), resource, deletedFinalStateUnknown));
		}

		private void deliver(String type, ResourceEvent<T> event) {
			// only fabric8's delivery thread takes it, so it is contended only by a relist
			this.delivery.lock();
			try {
				if (!isActive()) {
					return;
				}
				long started = System.nanoTime();
				// stopped while a listener had this event: the next listeners must not get it
				int failures = NamespaceInformer.this.owner.getPublisher().publish(event, this::isActive);
				Duration duration = Duration.ofNanos(System.nanoTime() - started);
				if (!EventTypes.RESYNC.equals(type)) {
					// resyncs replay the cache: fabric8 queues them without changing it
					this.tracker.delivered(Cache.metaNamespaceKeyFunc(event.getResource()));
				}
				NamespaceInformer.this.status.eventDelivered(type, failures);
				NamespaceInformer.this.owner.getDeliveryObserver()
					.delivered(NamespaceInformer.this.owner, NamespaceInformer.this.status, type, duration, failures);
			}
			finally {
				this.delivery.unlock();
			}
		}

		@Override
		public boolean retryAfterException(boolean isStarted, Throwable ex) {
			try {
				if (!isActive()) {
					return false;
				}
				WatchStatus status = NamespaceInformer.this.status;
				status.errorOccurred(ex);
				// a relist's informer has not started, but the watch had synced before
				boolean retry = NamespaceInformer.this.owner.getRetryPolicy()
					.shouldRetry(isStarted || status.isSynced(), ex);
				String where = (NamespaceInformer.this.namespace != null)
						? " in namespace " + NamespaceInformer.this.namespace : "";
				String name = NamespaceInformer.this.definition.getName();
				if (retry) {
					logger.warn("Informer '" + name + "'" + where + ": " + describe(ex) + "; retrying with backoff");
				}
				else {
					logger.error("Informer '" + name + "'" + where + ": " + describe(ex) + "; not retrying");
				}
				return retry;
			}
			catch (Throwable unexpected) {
				// fabric8 wedges an informer whose exception handler throws: retry instead
				logger.error("Informer '" + NamespaceInformer.this.definition.getName()
						+ "': handling an error failed; retrying anyway", unexpected);
				return true;
			}
		}

	}

	/**
	 * The view customizers get of this informer before it starts.
	 */
	private final class Spec implements InformerSpec<T> {

		private final SharedIndexInformer<T> informer;

		private final List<Consumer<? super T>> transforms;

		Spec(SharedIndexInformer<T> informer, List<Consumer<? super T>> transforms) {
			this.informer = informer;
			this.transforms = transforms;
		}

		@Override
		public InformerDefinition<T> getDefinition() {
			return NamespaceInformer.this.definition;
		}

		@Override
		public @Nullable String getNamespace() {
			return NamespaceInformer.this.namespace;
		}

		@Override
		public SharedIndexInformer<T> getInformer() {
			return this.informer;
		}

		@Override
		public void addTransform(Consumer<? super T> transform) {
			this.transforms.add(transform);
		}

	}

}
