package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.Informer;
import dev.informer.InformerCustomizer;
import dev.informer.InformerDefinition;
import dev.informer.InformerState;
import dev.informer.ResourceCache;
import dev.informer.event.InformerStateChangedEvent;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.listeners.BacklogOptions;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.listeners.ListenerThreads;
import dev.informer.runtime.namespaces.NamespaceSelectorWatches;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.runtime.replicas.DeliveryGate;
import dev.informer.runtime.replicas.ReplicatedInformer;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.watch.DeliveryObserver;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.ListObserver;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchSetObserver;
import dev.informer.watch.WatchedInformer;

/**
 * One declared informer: one fabric8 informer per declared namespace (or one for all), a
 * cache over all of them, and the status of each.
 * <p>
 * Longer than most classes because it is the runtime's handle on an informer: the
 * {@link dev.informer.Informer} and {@link dev.informer.watch.WatchedInformer} views,
 * start and stop with the threads they own (delivery and recovery), and the events about
 * the whole informer (state changes, sync).
 *
 * @param <T> the resource type
 */
public final class ResourceInformer<T extends HasMetadata> implements WatchedInformer<T>, ReplicatedInformer {

	private static final Log logger = LogFactory.getLog(ResourceInformer.class);

	private final InformerDefinition<T> definition;

	private final InformerEventPublisher publisher;

	private final RetryPolicy retryPolicy;

	private final Clock clock;

	private final List<NamespaceInformer<T>> parts = new CopyOnWriteArrayList<>();

	private final List<WatchSetObserver> watchSetObservers = new CopyOnWriteArrayList<>();

	/** With a namespace selector: what joins and leaves, while running. */
	private final SelectedNamespaces<T> selection = new SelectedNamespaces<>(this, this.parts, this.watchSetObservers);

	private final ResourceCache<T> cache;

	private final AtomicBoolean syncPublished = new AtomicBoolean();

	private volatile @Nullable Instant startedAt;

	private volatile DeliveryObserver deliveryObserver = DeliveryObserver.NONE;

	private volatile ListObserver listObserver = ListObserver.NONE;

	private volatile DeliveryGate gate = DeliveryGate.ALL;

	private volatile Supplier<@Nullable String> shardSelector = () -> null;

	private final RecoveryOptions recovery;

	private volatile BacklogOptions backlog = BacklogOptions.UNBOUNDED;

	private volatile @Nullable ScheduledExecutorService scheduler;

	private @Nullable ExecutorService executor;

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
		this.recovery = recovery;
		this.definition = definition;
		this.publisher = publisher;
		this.retryPolicy = retryPolicy;
		this.clock = clock;
		List<String> namespaces = definition.getDeclaration().getNamespaces();
		if (definition.getDeclaration().getNamespaceSelector() != null) {
			// the namespaces join and leave at runtime, see SelectedNamespaces
		}
		else if (namespaces.isEmpty()) {
			this.parts.add(new NamespaceInformer<>(this, null, clock));
		}
		else {
			namespaces.forEach((namespace) -> this.parts.add(new NamespaceInformer<>(this, namespace, clock)));
		}
		this.cache = new CombinedCache<>(Collections.unmodifiableList(this.parts),
				definition.getDeclaration().getIndexes().keySet());
	}

	/**
	 * Return what this informer watches.
	 * @return the definition
	 */
	@Override
	public InformerDefinition<T> getDefinition() {
		return this.definition;
	}

	/**
	 * Return the informer's name.
	 * @return the name
	 */
	@Override
	public String getName() {
		return this.definition.getName();
	}

	/**
	 * Return the cache.
	 * @return the cache
	 */
	@Override
	public ResourceCache<T> getCache() {
		return this.cache;
	}

	/**
	 * Return each watch, in declaration order of the namespaces.
	 * @return the watches
	 */
	@Override
	public List<Watch> getWatches() {
		return this.parts.stream().<Watch>map(NamespaceInformer::getStatus).toList();
	}

	/**
	 * Return whether every namespace has delivered its initial list.
	 * @return whether synced
	 */
	@Override
	public boolean isSynced() {
		return this.parts.stream().allMatch((part) -> part.getStatus().isSynced());
	}

	/**
	 * Return when {@link #start} was called.
	 * @return the start time, or {@code null} if not started
	 */
	@Override
	public @Nullable Instant getStartedAt() {
		return this.startedAt;
	}

	/**
	 * Return whether every fabric8 informer currently has an open watch.
	 * @return whether watching
	 */
	@Override
	public boolean isWatching() {
		return this.parts.stream().allMatch(NamespaceInformer::isWatching);
	}

	/**
	 * Sample every watch's connection and resourceVersion into its status. Called by
	 * {@link WatchMonitor} every {@link WatchMonitor#DEFAULT_PERIOD sampling period}.
	 */
	public void sampleWatches() {
		this.parts.forEach(NamespaceInformer::sample);
		this.selection.sample();
	}

	/**
	 * Return the watch on Namespaces of this informer's {@code namespace-selector},
	 * shared with the informers of the same selector.
	 * @return the watch, {@code null} without a selector or before the first start
	 */
	@Override
	public @Nullable Watch getNamespaceWatch() {
		return this.selection.namespaceWatch();
	}

	/**
	 * Add an observer of delivered events. An observer that throws is logged and does not
	 * keep other observers from the event.
	 * @param observer the observer
	 */
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

	/**
	 * Publish through {@code gate} from now on, and list and watch with the shard
	 * selector {@code shardSelector} gives when a watch (re)starts.
	 * @param gate which objects this replica publishes
	 * @param shardSelector the API server shard selector, or {@code null} for all objects
	 */
	@Override
	public void deliverThrough(DeliveryGate gate, Supplier<@Nullable String> shardSelector) {
		this.gate = gate;
		this.shardSelector = shardSelector;
	}

	DeliveryGate gate() {
		return this.gate;
	}

	@Nullable String shardSelector() {
		return this.shardSelector.get();
	}

	/**
	 * Replay the cached objects {@code gained} selects, in order with each watch's
	 * events.
	 * @param gained the objects this replica took over
	 * @param reason why, as {@link dev.informer.event.ResourcesReplayedEvent} says
	 */
	@Override
	public void replay(Predicate<? super HasMetadata> gained, String reason) {
		this.parts.forEach((part) -> part.replay(gained, reason));
	}

	/**
	 * Replay every owned object of each watch whose gate kept back a change this replica
	 * owed, in order with the watch's events. Call once the gate publishes again.
	 * @param reason why, as {@link dev.informer.event.ResourcesReplayedEvent} says
	 */
	@Override
	public void replayIfOwed(String reason) {
		this.parts.forEach((part) -> part.replayIfOwed(reason));
	}

	/**
	 * Relist every watch with the current shard selector, each once a list permit lets
	 * it, flagging the adds of objects this replica did not publish before as replays.
	 * Watches not running are left alone; a relist that fails is retried.
	 * @param delivered the objects this replica published before, by its previous range
	 */
	@Override
	public void relistForRange(Predicate<? super HasMetadata> delivered) {
		this.parts.forEach((part) -> part.relistForRange(delivered));
	}

	/**
	 * Return whether the API server filters this informer's lists by shard selector.
	 * @param client the client
	 * @return whether shard selectors are served
	 */
	@Override
	public boolean servesShardSelectors(KubernetesClient client) {
		// with a namespace-selector no namespace may match yet: ask across all of them
		NamespaceInformer<T> probe = this.parts.isEmpty() ? new NamespaceInformer<>(this, null, this.clock)
				: this.parts.get(0);
		return probe.servesShardSelectors(client);
	}

	/**
	 * Add an observer of the watches added and removed as namespaces join and leave the
	 * {@code namespace-selector}.
	 * @param observer the observer
	 */
	@Override
	public void addWatchSetObserver(WatchSetObserver observer) {
		this.watchSetObservers.add(observer);
	}

	InformerEventPublisher getPublisher() {
		return this.publisher;
	}

	/**
	 * Observe the lists of every watch of this informer (an {@code informer.list}
	 * observation).
	 * @param listObserver the observer
	 */
	public void setListObserver(ListObserver listObserver) {
		this.listObserver = listObserver;
	}

	ListObserver getListObserver() {
		return this.listObserver;
	}

	DeliveryObserver getDeliveryObserver() {
		return this.deliveryObserver;
	}

	RetryPolicy getRetryPolicy() {
		if (this.definition.getDeclaration().getNamespaceSelector() == null) {
			return this.retryPolicy;
		}
		return (started, ex) -> {
			if (this.selection.isStartupSynced()) {
				// a namespace joining later is retried as a watch that lost access is:
				// the application is running, and the others are unaffected
				return this.retryPolicy.shouldRetry(true, ex);
			}
			int code = KubernetesErrors.httpCode(ex);
			if (!started && (code == 401 || code == 403)) {
				// matching before its RoleBinding exists: retried, see SelectedNamespaces
				this.selection.forbiddenAtStart();
				return true;
			}
			return this.retryPolicy.shouldRetry(started, ex);
		};
	}

	RetryPolicy declaredRetryPolicy() {
		return this.retryPolicy;
	}

	Clock clock() {
		return this.clock;
	}

	RecoveryOptions getRecovery() {
		return this.recovery;
	}

	/**
	 * Bound the changes each watch holds for listeners
	 * ({@code informer.delivery.max-backlog} and {@code overflow}); unbounded unless set.
	 * Applies from the next start.
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

	@Nullable ScheduledExecutorService getScheduler() {
		return this.scheduler;
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
		return start(client, customizers, permits, null);
	}

	/**
	 * Start every fabric8 informer, as
	 * {@link #start(KubernetesClient, List, ListPermits)} does; an informer declared with
	 * a {@code namespace-selector} shares the watch on Namespaces of its selector through
	 * {@code selections} (or, when {@code null}, has one of its own), and its future
	 * completes when the namespaces matching at start have synced.
	 * @param client the client
	 * @param customizers the customizers to apply before each start
	 * @param permits the cap on concurrent initial lists, shared by the informers
	 * @param selections the shared watches on Namespaces, or {@code null}
	 * @return a future that completes when every namespace has synced, or fails when one
	 * gave up
	 */
	public CompletableFuture<Void> start(KubernetesClient client, List<InformerCustomizer> customizers,
			ListPermits permits, @Nullable NamespaceSelectorWatches selections) {
		return start(client, customizers, permits, selections, null);
	}

	/**
	 * Start every fabric8 informer, as
	 * {@link #start(KubernetesClient, List, ListPermits, NamespaceSelectorWatches)} does,
	 * with listeners run on {@code listenerThreads}, shared with other informers and shut
	 * down by its owner; or, when {@code null}, on threads of this informer's own, at
	 * most {@link ListenerThreads#DEFAULT_MAX} at once.
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
		shutDownScheduler();
		this.scheduler = recoveryScheduler();
		Executor executor;
		if (listenerThreads != null) {
			executor = listenerThreads;
			this.executor = null;
		}
		else {
			ExecutorService own = ListenerThreads.create("informer-" + getName(), ListenerThreads.DEFAULT_MAX);
			this.executor = own;
			executor = own;
		}
		String selector = this.definition.getDeclaration().getNamespaceSelector();
		if (selector != null) {
			NamespaceSelectorWatches shared = (selections != null) ? selections : new NamespaceSelectorWatches(client);
			return this.selection.start(shared, selector, client, customizers, executor, permits);
		}
		CompletableFuture<Void> result = new CompletableFuture<>();
		List<CompletableFuture<Void>> synced = new ArrayList<>();
		for (NamespaceInformer<T> part : this.parts) {
			CompletableFuture<Void> partSynced = part.start(client, customizers, executor, permits);
			partSynced.whenComplete((ignored, ex) -> {
				if (ex != null) {
					result.completeExceptionally(ex);
				}
			});
			synced.add(partSynced);
		}
		CompletableFuture.allOf(synced.toArray(CompletableFuture[]::new)).thenRun(() -> result.complete(null));
		return result;
	}

	/**
	 * Rebuild the cache from a fresh list, delivering only real differences as events:
	 * unchanged objects (same resourceVersion) cause none, changed ones a
	 * {@link dev.informer.event.ResourceUpdatedEvent}, vanished ones a
	 * {@link dev.informer.event.ResourceDeletedEvent} with final state unknown, new ones
	 * a {@link dev.informer.event.ResourceAddedEvent}. Each namespace's fabric8 informer
	 * is replaced by a new one seeded with what listeners will have seen once the events
	 * already queued are delivered; customizers run again for it (transforms run on the
	 * listed objects that changed, not on the seeded ones). Returns at once, without
	 * waiting for listeners. Counted as a relist of reason {@link RelistReason#MANUAL}.
	 * @return a future that completes when every namespace's list has been delivered
	 * @throws IllegalStateException if the informer is not running
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
		for (NamespaceInformer<T> part : this.parts) {
			listed.add(part.relist(reason));
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
		this.parts.forEach(NamespaceInformer::stop);
		shutDownScheduler();
		ExecutorService executor = this.executor;
		if (executor != null) {
			executor.shutdownNow();
			this.executor = null;
		}
	}

	/**
	 * The thread that replaces fabric8 informers that stopped working (see
	 * {@link RecoveryOptions}), owned by this informer whether or not a
	 * {@link WatchMonitor} samples it: none while no replacement is pending.
	 */
	private ScheduledExecutorService recoveryScheduler() {
		ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "informer-" + getName() + "-recovery");
			thread.setDaemon(true);
			return thread;
		});
		scheduler.setKeepAliveTime(30, TimeUnit.SECONDS);
		scheduler.allowCoreThreadTimeOut(true);
		scheduler.setRemoveOnCancelPolicy(true);
		return scheduler;
	}

	private void shutDownScheduler() {
		ScheduledExecutorService scheduler = this.scheduler;
		if (scheduler != null) {
			scheduler.shutdownNow();
			this.scheduler = null;
		}
	}

	/**
	 * Return the namespaces that failed, with their errors.
	 * @return the failed watches
	 */
	public List<WatchStatus> getUnsynced() {
		return this.parts.stream().map(NamespaceInformer::getStatus).filter((status) -> !status.isSynced()).toList();
	}

	void stateChanged(WatchStatus status, InformerState previous, InformerState current, String cause) {
		this.publisher
			.publish(new InformerStateChangedEvent(getName(), status.getNamespace(), previous, current, cause));
	}

	void namespaceSynced() {
		if (this.definition.getDeclaration().getNamespaceSelector() != null) {
			// published once the namespaces matching at start synced, see
			// SelectedNamespaces
			return;
		}
		if (isSynced()) {
			publishSynced();
		}
	}

	/**
	 * Publish the synced event, once per start.
	 */
	void publishSynced() {
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

}
