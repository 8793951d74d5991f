package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.InformerCustomizer;
import dev.informer.InformerDefinition;
import dev.informer.InformerState;
import dev.informer.ResourceCache;
import dev.informer.event.InformerStateChangedEvent;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.runtime.kinds.InformerOperations;
import dev.informer.runtime.listeners.BacklogOptions;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.listeners.ListenerThreads;
import dev.informer.runtime.namespaces.NamespaceSelectorWatch;
import dev.informer.runtime.namespaces.NamespaceSelectorWatches;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.runtime.replicas.DeliveryGate;
import dev.informer.runtime.replicas.DeliveryRecords;
import dev.informer.runtime.replicas.ReplicatedInformer;
import dev.informer.runtime.replicas.ShardRanges;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.watch.DeliveryObserver;
import dev.informer.watch.ListObserver;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchSetObserver;
import dev.informer.watch.WatchedInformer;

/**
 * One declared informer: one watch ({@link ResourceWatch}) per declared namespace, or one
 * for all, or one per namespace a {@code namespace-selector} matches; a cache over all of
 * them; the threads its watches share (delivery and recovery); and the events about the
 * whole informer (state changes, sync).
 *
 * @param <T> the resource type
 * @since 0.1.0
 */
public final class ResourceInformer<T extends HasMetadata> implements WatchedInformer<T>, ReplicatedInformer {

	private static final Log logger = LogFactory.getLog(ResourceInformer.class);

	private final InformerDefinition<T> definition;

	private final InformerEventPublisher publisher;

	private final RetryPolicy retryPolicy;

	private final RecoveryOptions recovery;

	private final Clock clock;

	private final WatchSet<T> watches = new WatchSet<>();

	private final List<WatchSetObserver> watchSetObservers = new CopyOnWriteArrayList<>();

	/** With a namespace selector: what joins and leaves, while running. */
	private final SelectedNamespaces<T> selection;

	/** With a namespace selector: the deletes kept back for namespaces that left. */
	private final LeftNamespaces<T> left = new LeftNamespaces<>();

	private final CombinedCache<T> cache;

	private final WatchEvents events = new Events();

	private final AtomicBoolean syncPublished = new AtomicBoolean();

	private volatile @Nullable Instant startedAt;

	private volatile DeliveryObserver deliveryObserver = DeliveryObserver.NONE;

	private volatile ListObserver listObserver = ListObserver.NONE;

	private volatile DeliveryGate gate = DeliveryGate.ALL;

	private volatile DeliveryRecords records = DeliveryRecords.defaults();

	private volatile Supplier<@Nullable String> shardSelector = () -> null;

	private volatile BacklogOptions backlog = BacklogOptions.UNBOUNDED;

	private @Nullable InformerThreads threads;

	/**
	 * Create an informer; nothing runs until {@link #start}.
	 * @param definition what to watch
	 * @param publisher where to deliver events
	 * @param retryPolicy what to do on errors
	 * @param clock the clock for status times
	 */
	public ResourceInformer(InformerDefinition<T> definition, InformerEventPublisher publisher, RetryPolicy retryPolicy,
			Clock clock) {
		this(definition, publisher, retryPolicy, RecoveryOptions.DEFAULT, clock);
	}

	/**
	 * Create an informer; nothing runs until {@link #start}.
	 * @param definition what to watch
	 * @param publisher where to deliver events
	 * @param retryPolicy what to do on errors
	 * @param recovery when to replace a fabric8 informer that stopped working
	 * @param clock the clock for status times
	 */
	public ResourceInformer(InformerDefinition<T> definition, InformerEventPublisher publisher, RetryPolicy retryPolicy,
			RecoveryOptions recovery, Clock clock) {
		this.definition = definition;
		this.publisher = publisher;
		this.retryPolicy = retryPolicy;
		this.recovery = recovery;
		this.clock = clock;
		this.selection = new SelectedNamespaces<>(this, this::newWatch, publisher, this::publishSynced, this.watches,
				this.watchSetObservers, this.left);
		List<String> namespaces = definition.getDeclaration().getNamespaces();
		if (definition.getDeclaration().getNamespaceSelector() != null) {
			// the namespaces join and leave at runtime, see SelectedNamespaces
		}
		else if (namespaces.isEmpty()) {
			this.watches.add(newWatch(null));
		}
		else {
			namespaces.forEach((namespace) -> this.watches.add(newWatch(namespace)));
		}
		this.cache = new CombinedCache<>(this.watches, definition.getDeclaration().getIndexes().keySet());
	}

	private ResourceWatch<T> newWatch(@Nullable String namespace) {
		return new ResourceWatch<>(this.definition, namespace, this.clock, this.recovery, this.events);
	}

	@Override
	public InformerDefinition<T> getDefinition() {
		return this.definition;
	}

	@Override
	public String getName() {
		return this.definition.getName();
	}

	@Override
	public ResourceCache<T> getCache() {
		return this.cache;
	}

	@Override
	public List<Watch> getWatches() {
		return this.watches.stream().<Watch>map(ResourceWatch::getStatus).toList();
	}

	@Override
	public boolean isSynced() {
		return this.watches.stream().allMatch((watch) -> watch.getStatus().isSynced());
	}

	@Override
	public @Nullable Instant getStartedAt() {
		return this.startedAt;
	}

	@Override
	public boolean isWatching() {
		return this.watches.stream().allMatch(ResourceWatch::isWatching);
	}

	/**
	 * Sample every watch's connection and resourceVersion into its status. Called by
	 * {@link WatchMonitor} every {@link WatchMonitor#DEFAULT_PERIOD sampling period}.
	 */
	public void sampleWatches() {
		this.watches.stream().forEach(ResourceWatch::sample);
		this.selection.sample();
		this.left.sample();
	}

	/**
	 * Read the API server's current resourceVersion for each watch, to tell how far its
	 * cache is behind; called by the {@link StalenessCheck}.
	 */
	public void checkServerResourceVersions() {
		this.watches.stream().forEach(ResourceWatch::checkServerResourceVersion);
	}

	@Override
	public @Nullable Watch getNamespaceWatch() {
		return this.selection.namespaceWatch();
	}

	@Override
	public synchronized void addDeliveryObserver(DeliveryObserver observer) {
		this.deliveryObserver = this.deliveryObserver
			.andThen((informer, namespace, type, duration, failedListeners) -> {
				try {
					observer.delivered(informer, namespace, type, duration, failedListeners);
				}
				catch (RuntimeException ex) {
					logger.error("Delivery observer " + observer + " failed on a " + type + " event of informer '"
							+ getName() + "'; other observers and later events are not affected", ex);
				}
			});
	}

	DeliveryObserver getDeliveryObserver() {
		return this.deliveryObserver;
	}

	@Override
	public void deliverThrough(DeliveryGate gate, Supplier<@Nullable String> shardSelector, DeliveryRecords records) {
		this.gate = gate;
		this.shardSelector = shardSelector;
		this.records = records;
	}

	@Override
	public void replay(Predicate<? super HasMetadata> gained, String reason) {
		this.watches.stream().forEach((watch) -> watch.takeovers().replay(gained, reason));
		this.left.replay(gained, reason);
	}

	@Override
	public void takeOver(Predicate<? super HasMetadata> gained, Instant since, String reason) {
		this.watches.stream().forEach((watch) -> watch.takeovers().takeOver(gained, since, reason));
		this.left.replay(gained, reason);
	}

	@Override
	public void replayIfOwed(String reason) {
		this.watches.stream().forEach((watch) -> watch.takeovers().replayIfOwed(reason));
		this.left.replayIfOwed(reason);
	}

	@Override
	public void handOver(Predicate<? super HasMetadata> moved) {
		this.watches.stream().forEach((watch) -> watch.takeovers().handOver(moved));
	}

	@Override
	public void deliverOwedDeletes() {
		this.watches.stream().forEach((watch) -> watch.takeovers().deliverOwedDeletes());
		this.left.deliverOwedDeletes();
	}

	@Override
	public void relistForRange(Predicate<? super HasMetadata> delivered, Instant since) {
		this.watches.stream().forEach((watch) -> watch.takeovers().relistForRange(delivered, since));
		// a namespace that left has no list: its kept deletes of the new range replay
		this.left.replay((resource) -> !delivered.test(resource), "shard-range");
	}

	@Override
	public boolean servesShardSelectors(KubernetesClient client) {
		// with a namespace-selector no namespace may match yet: ask across all of them
		List<ResourceWatch<T>> watches = this.watches.list();
		String namespace = watches.isEmpty() ? null : watches.get(0).getNamespace();
		return InformerOperations.servesShardSelectors(client, this.definition, namespace,
				ShardRanges.of(0, 1).selector());
	}

	@Override
	public void addWatchSetObserver(WatchSetObserver observer) {
		this.watchSetObservers.add(observer);
	}

	/**
	 * Observe the lists of every watch of this informer (an {@code informer.list}
	 * observation). Applies from the next start.
	 * @param listObserver the observer
	 */
	public void setListObserver(ListObserver listObserver) {
		this.listObserver = listObserver;
	}

	/**
	 * Bound the changes each watch holds for listeners
	 * ({@code informer.listeners.max-backlog} and {@code overflow}); unbounded unless
	 * set. Applies from the next start.
	 * @param backlog the bound and what happens beyond it
	 */
	public void setBacklog(BacklogOptions backlog) {
		this.backlog = backlog;
	}

	/**
	 * Return the bound of the changes each watch holds for listeners.
	 * @return the bound, {@link BacklogOptions#UNBOUNDED} unless set
	 */
	public BacklogOptions getBacklog() {
		return this.backlog;
	}

	/**
	 * Start every fabric8 informer.
	 * @param client the client
	 * @param customizers the customizers to apply before each start
	 * @return a future that completes when every namespace has synced, or fails when one
	 * gave up
	 */
	public CompletableFuture<Void> start(KubernetesClient client, List<InformerCustomizer> customizers) {
		return start(client, customizers, ListPermits.UNLIMITED);
	}

	/**
	 * Start every fabric8 informer, each namespace's initial list once {@code permits}
	 * lets it. An informer stopped before may be started again: it then lists afresh.
	 * @param client the client
	 * @param customizers the customizers to apply before each start
	 * @param permits the cap on concurrent initial lists, shared by the informers
	 * @return a future that completes when every namespace has synced, or fails when one
	 * gave up
	 */
	public CompletableFuture<Void> start(KubernetesClient client, List<InformerCustomizer> customizers,
			ListPermits permits) {
		return start(client, customizers, permits, null, null);
	}

	/**
	 * Start every fabric8 informer, as
	 * {@link #start(KubernetesClient, List, ListPermits)} does; an informer declared with
	 * a {@code namespace-selector} shares the watch on Namespaces of its selector through
	 * {@code selections} (or, when {@code null}, has one of its own), and its future
	 * completes when the namespaces matching at start have synced. Listeners run on
	 * {@code listenerThreads}, shared with other informers and shut down by its owner;
	 * or, when {@code null}, on threads of this informer's own, at most
	 * {@link ListenerThreads#DEFAULT_MAX} at once.
	 * @param client the client
	 * @param customizers the customizers to apply before each start
	 * @param permits the cap on concurrent initial lists, shared by the informers
	 * @param selections the shared watches on Namespaces, or {@code null}
	 * @param listenerThreads where listeners run, or {@code null}
	 * @return a future that completes when every namespace has synced, or fails when one
	 * gave up
	 */
	public synchronized CompletableFuture<Void> start(KubernetesClient client, List<InformerCustomizer> customizers,
			ListPermits permits, @Nullable NamespaceSelectorWatches selections, @Nullable Executor listenerThreads) {
		this.startedAt = this.clock.instant();
		this.syncPublished.set(false);
		shutDownThreads();
		InformerThreads threads = new InformerThreads(getName(), listenerThreads);
		this.threads = threads;
		String selector = this.definition.getDeclaration().getNamespaceSelector();
		RetryPolicy retryPolicy = (selector != null) ? this.selection.retryPolicy(this.retryPolicy) : this.retryPolicy;
		WatchSettings settings = new WatchSettings(this.publisher, retryPolicy, this.recovery, this.backlog,
				threads.recovery(), this.listObserver, () -> this.deliveryObserver, () -> this.gate,
				() -> this.shardSelector.get(), () -> this.records);
		WatchStart start = new WatchStart(client, customizers, threads.listeners(), permits, settings);
		if (selector != null) {
			NamespaceSelectorWatches shared = (selections != null) ? selections : new NamespaceSelectorWatches(client);
			NamespaceSelectorWatch selection = shared.selection(selector, this.retryPolicy, this.recovery, this.clock,
					this.recovery.availabilitySamples(WatchMonitor.DEFAULT_PERIOD));
			return this.selection.start(shared, selection, start);
		}
		List<CompletableFuture<Void>> synced = new ArrayList<>();
		for (ResourceWatch<T> watch : this.watches.list()) {
			synced.add(watch.start(start));
		}
		return Futures.allOrFirstFailure(synced);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Each namespace's fabric8 informer is replaced by a new one seeded with what
	 * listeners will have seen once the events already queued are delivered; customizers
	 * run again for it (transforms run on the listed objects that changed, not on the
	 * seeded ones). Counted as a relist of reason {@link RelistReason#MANUAL}.
	 */
	@Override
	public CompletableFuture<Void> relist() {
		return relist(RelistReason.MANUAL);
	}

	/**
	 * Rebuild the cache from a fresh list, as {@link #relist()} does, counted under the
	 * given reason (for example to replace a failed watch).
	 * @param reason the reason the relist is counted under
	 * @return a future that completes when every namespace has listed
	 * @throws IllegalStateException if the informer is not running
	 */
	public CompletableFuture<Void> relist(RelistReason reason) {
		List<CompletableFuture<Void>> listed = new ArrayList<>();
		for (ResourceWatch<T> watch : this.watches.list()) {
			listed.add(watch.relist(reason));
		}
		return CompletableFuture.allOf(listed.toArray(CompletableFuture[]::new));
	}

	/**
	 * Stop every fabric8 informer. No event is published after this returns; a listener
	 * still running is interrupted (and not waited for), as a task executor interrupts
	 * its tasks on shutdown. A relist or a replacement never interrupts a listener.
	 */
	public synchronized void stop() {
		this.selection.stop();
		this.watches.stream().forEach(ResourceWatch::stop);
		shutDownThreads();
	}

	private void shutDownThreads() {
		InformerThreads threads = this.threads;
		if (threads != null) {
			threads.shutDown();
			this.threads = null;
		}
	}

	/**
	 * Return the namespaces that failed, with their errors.
	 * @return the failed watches
	 */
	public List<WatchStatus> getUnsynced() {
		return this.watches.stream().map(ResourceWatch::getStatus).filter((status) -> !status.isSynced()).toList();
	}

	/**
	 * Publish the synced event, once per start.
	 */
	private void publishSynced() {
		if (this.syncPublished.compareAndSet(false, true)) {
			Instant started = this.startedAt;
			Duration timeToSync = (started != null) ? Duration.between(started, this.clock.instant()) : Duration.ZERO;
			this.publisher.publish(new InformerSyncedEvent(getName(), this.cache.size(), timeToSync));
		}
	}

	@Override
	public String toString() {
		return "ResourceInformer[" + this.definition + "]";
	}

	/**
	 * What the watches tell this informer.
	 */
	private final class Events implements WatchEvents {

		@Override
		public void synced() {
			if (ResourceInformer.this.definition.getDeclaration().getNamespaceSelector() != null) {
				// published once the namespaces matching at start synced, see
				// SelectedNamespaces
				return;
			}
			if (isSynced()) {
				publishSynced();
			}
		}

		@Override
		public void stateChanged(WatchStatus status, InformerState previous, InformerState current, String cause) {
			ResourceInformer.this.publisher
				.publish(new InformerStateChangedEvent(getName(), status.getNamespace(), previous, current, cause));
		}

		@Override
		public void cacheChanged() {
			ResourceInformer.this.cache.changed();
		}

	}

}
