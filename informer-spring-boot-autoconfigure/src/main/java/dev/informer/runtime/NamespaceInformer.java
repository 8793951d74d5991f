package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListMeta;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
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

import dev.informer.InformerCustomizer;
import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.InformerSpec;
import dev.informer.InformerState;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourcesReplayedEvent;
import dev.informer.runtime.changes.ChangeFilter;
import dev.informer.runtime.kinds.InformerOperations;
import dev.informer.runtime.listeners.ListenerQueue;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.runtime.replicas.DeliveryGate;
import dev.informer.runtime.replicas.MissedChanges;
import dev.informer.runtime.replicas.ShardRanges;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.watch.EventType;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.RelistReason;
import dev.informer.watch.WatchSnapshot;

/**
 * One watch behind a {@link ResourceInformer}: the whole informer, or one of its
 * namespaces. Runs a fabric8 informer and turns its callbacks into events and status; a
 * relist replaces that fabric8 informer by a new one seeded with what listeners will have
 * seen.
 * <p>
 * fabric8's callbacks only hand events to a {@link ListenerQueue}, which outlives the
 * fabric8 informers: listeners run on the queue's thread, one event at a time and in
 * order, whatever informer is current. A relist or a replacement therefore never waits
 * for a listener, never interrupts one, and what the old informer handed on is still
 * delivered before anything of the new one.
 * <p>
 * Longer than most classes: starting, relisting, replacing (recovery with its backoff)
 * and stopping all swap the current {@link InformerGeneration} under one lock, and are
 * kept together so that the order of those swaps can be read in one place. What one
 * generation does with fabric8's callbacks is in {@link InformerGeneration}.
 *
 * @param <T> the resource type
 */
final class NamespaceInformer<T extends HasMetadata> {

	private static final Log logger = LogFactory.getLog(ResourceInformer.class);

	private final ResourceInformer<T> owner;

	private final InformerDefinition<T> definition;

	private final @Nullable String namespace;

	private final WatchStatus status;

	private final Clock clock;

	/** Keys with a resync queued: a cycle that finds one queued adds no second. */
	private final Set<String> resyncsQueued = ConcurrentHashMap.newKeySet();

	private final AtomicReference<@Nullable BackOffExecution> backOff = new AtomicReference<>();

	private volatile CompletableFuture<Void> synced = new CompletableFuture<>();

	private volatile @Nullable ListenerQueue queue;

	private volatile @Nullable KubernetesClient client;

	private volatile List<InformerCustomizer> customizers = List.of();

	private volatile @Nullable InformerGeneration<T> current;

	private volatile boolean closed;

	/** Leaving the namespace selection: no relist or replacement any more. */
	private volatile boolean leaving;

	private volatile boolean watchListRefused;

	private volatile ListPermits permits = ListPermits.UNLIMITED;

	private @Nullable ScheduledFuture<?> pendingReplacement;

	/** What the delivery gate kept from listeners while this replica owed it. */
	private final MissedChanges<T> missed = new MissedChanges<>();

	/** Whether a replay of what was missed is queued. */
	private final AtomicBoolean replayQueued = new AtomicBoolean();

	/** The on-change filter: outlives relists, whose updates it compares too. */
	private final ChangeFilter<T> changes;

	NamespaceInformer(ResourceInformer<T> owner, @Nullable String namespace, Clock clock) {
		this.owner = owner;
		this.definition = owner.getDefinition();
		this.namespace = namespace;
		this.clock = clock;
		this.changes = ChangeFilter.of(this.definition.getDeclaration());
		this.status = new WatchStatus(namespace, this.definition.getDeclaration().getResyncPeriod(), clock,
				this::stateChanged, owner.getRecovery().availabilitySamples(WatchMonitor.DEFAULT_PERIOD));
		this.status.live(new WatchStatus.Live() {

			@Override
			public boolean isOpen() {
				return isWatching();
			}

			@Override
			public int cacheSize() {
				CachingItemStore<T> store = store();
				return (store != null) ? store.size() : 0;
			}

			@Override
			public long backlog() {
				return NamespaceInformer.this.backlog();
			}

			@Override
			public boolean backlogAtBound() {
				ListenerQueue queue = NamespaceInformer.this.queue;
				return queue != null && queue.isAtBound();
			}

			@Override
			public @Nullable String lastResourceVersion() {
				SharedIndexInformer<T> informer = informer();
				return (informer != null) ? informer.lastSyncResourceVersion() : null;
			}

		});
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

	ResourceInformer<T> owner() {
		return this.owner;
	}

	InformerDefinition<T> definition() {
		return this.definition;
	}

	Clock clock() {
		return this.clock;
	}

	@Nullable ListenerQueue queue() {
		return this.queue;
	}

	Set<String> resyncsQueued() {
		return this.resyncsQueued;
	}

	ChangeFilter<T> changes() {
		return this.changes;
	}

	boolean isClosed() {
		return this.closed;
	}

	InformerSpec<T> spec(SharedIndexInformer<T> informer, List<Consumer<? super T>> transforms) {
		return new Spec(informer, transforms);
	}

	@Nullable CachingItemStore<T> store() {
		InformerGeneration<T> generation = this.current;
		return (generation != null) ? generation.store() : null;
	}

	@Nullable SharedIndexInformer<T> informer() {
		InformerGeneration<T> generation = this.current;
		return (generation != null) ? generation.informer() : null;
	}

	boolean isWatching() {
		SharedIndexInformer<T> informer = informer();
		return informer != null && informer.isWatching();
	}

	/**
	 * Return the changes not yet handed to listeners: those fabric8 has cached but not
	 * yet handed on, and those waiting in the delivery queue (resyncs included).
	 */
	long backlog() {
		if (this.closed) {
			// a stopped watch delivers nothing more: fabric8's queue is dropped with it
			return 0;
		}
		InformerGeneration<T> generation = this.current;
		ListenerQueue queue = this.queue;
		return ((generation != null) ? generation.tracker().backlog() : 0) + ((queue != null) ? queue.backlog() : 0);
	}

	long fabric8Backlog() {
		InformerGeneration<T> generation = this.current;
		return (generation != null) ? generation.tracker().backlog() : 0;
	}

	/**
	 * Start watching, once {@code permits} lets this watch list. May be called again
	 * after {@link #stop()}: the watch then starts afresh, with a new initial list.
	 */
	synchronized CompletableFuture<Void> start(KubernetesClient client, List<InformerCustomizer> customizers,
			Executor executor, ListPermits permits) {
		this.client = client;
		this.customizers = List.copyOf(customizers);
		this.permits = permits;
		if (this.closed) {
			this.closed = false;
			this.synced = new CompletableFuture<>();
			this.status.restarted();
		}
		this.resyncsQueued.clear();
		this.changes.clear();
		this.backOff.set(null);
		// a replay queued on the old queue was dropped with it; the new list is live
		this.missed.clear();
		this.replayQueued.set(false);
		this.queue = new ListenerQueue(executor, this.owner.getBacklog(), new BacklogOverflow(this));
		InformerGeneration<T> generation = new InformerGeneration<>(this, client, this.customizers);
		this.current = generation;
		permits.run(() -> {
			if (this.current == generation && !this.closed) {
				generation.start(permits::release);
			}
			else {
				permits.release();
			}
		});
		return this.synced;
	}

	/**
	 * Replace the fabric8 informer by a new one seeded with what listeners will have seen
	 * once the queue is delivered, so that its list delivers only the differences:
	 * unchanged objects (same resourceVersion) cause no event, changed ones an update,
	 * vanished ones a delete with final state unknown. Returns at once: events already
	 * queued are delivered first, and a listener that is busy is neither waited for nor
	 * interrupted.
	 * @param trigger the reason, counted as the relist's trigger
	 * @return a future that completes when the new informer's list has been delivered
	 */
	synchronized CompletableFuture<Void> relist(RelistReason trigger) {
		return relist(trigger, false);
	}

	/**
	 * Relist as {@link #relist(RelistReason)} does, flagging the adds of the new list as
	 * replays when {@code replay}: the objects of a shard range this replica took over.
	 */
	synchronized CompletableFuture<Void> relist(RelistReason trigger, boolean replay) {
		return relist(trigger, replay, (resource) -> true);
	}

	/**
	 * Relist as {@link #relist(RelistReason, boolean)} does, seeding the new informer
	 * only with the objects {@code delivered} selects of what listeners saw: the others
	 * arrive as adds (a shard range relist seeds with the range this replica published).
	 */
	synchronized CompletableFuture<Void> relist(RelistReason trigger, boolean replay, Predicate<? super T> delivered) {
		return relist(trigger, replay, delivered, null);
	}

	private synchronized CompletableFuture<Void> relist(RelistReason trigger, boolean replay,
			Predicate<? super T> delivered, @Nullable Runnable releasePermit) {
		KubernetesClient client = this.client;
		InformerGeneration<T> old = this.current;
		if (this.closed || this.leaving || client == null || old == null) {
			throw new IllegalStateException("Informer '" + this.definition.getName() + "' is not running");
		}
		cancelPendingReplacement();
		// customizers are the application's code: if one throws, the current informer
		// goes on
		InformerGeneration<T> next = new InformerGeneration<>(this, client, this.customizers);
		// changes the gate kept from listeners are differences the new list delivers
		List<T> seed = this.missed.undo(old.retire()).values().stream().filter(delivered).toList();
		next.seed(seed);
		if (replay) {
			next.replayList();
		}
		this.status.relistRequested(trigger);
		this.current = next;
		next.start(releasePermit);
		return next.listed();
	}

	/**
	 * Relist for a new shard range: as {@link #relist(RelistReason, boolean, Predicate)}
	 * does, once {@code permits} lets this watch list, then replay every object of the
	 * range, as {@link #replay} does. A relist that fails is retried as a replacement,
	 * with backoff: the watch never stays on the old range.
	 * @param delivered the objects this replica published before, by its previous range
	 */
	void relistForRange(Predicate<? super T> delivered) {
		ListPermits permits = this.permits;
		permits.run(() -> {
			CompletableFuture<Void> listed;
			synchronized (this) {
				if (this.closed || this.leaving || this.client == null || this.current == null) {
					// stopped meanwhile: it lists with the new range when it starts
					permits.release();
					return;
				}
				try {
					listed = relist(RelistReason.SHARD_RANGE, true, delivered, permits::release);
				}
				catch (RuntimeException ex) {
					// a customizer (the application's code) threw
					permits.release();
					logger.warn("Informer '" + this.definition.getName() + "'" + where()
							+ ": relisting for a new shard range failed (" + KubernetesErrors.describe(ex)
							+ "); trying again");
					scheduleReplacement(RelistReason.SHARD_RANGE, "relisting for a new shard range failed");
					return;
				}
			}
			listed.whenComplete((ignored, ex) -> {
				if (ex == null) {
					// after the list's events: every object of the range, so that the
					// ResourcesReplayedEvent covers the whole range as it says
					replay((resource) -> true, "shard-range");
				}
			});
		});
	}

	private void cancelPendingReplacement() {
		ScheduledFuture<?> pending = this.pendingReplacement;
		if (pending != null) {
			pending.cancel(false);
			this.pendingReplacement = null;
		}
	}

	SharedIndexInformer<T> createInformer(KubernetesClient client) {
		FilterWatchListDeletable<T, ?, ?> filtered = operation(client);
		String shardSelector = this.owner.shardSelector();
		if (shardSelector != null) {
			filtered = filtered.withShardSelector(shardSelector);
		}
		InformerDeclaration declaration = this.definition.getDeclaration();
		Long limit = (declaration.getListPageSize() > 0) ? declaration.getListPageSize() : null;
		return filtered.withLimit(limit).runnableInformer(declaration.getResyncPeriod().toMillis());
	}

	/**
	 * Return whether the API server filters this watch's lists by shard selector: it then
	 * says so in the list's metadata. One request for at most one object.
	 * @param client the client
	 * @return whether shard selectors are served
	 */
	boolean servesShardSelectors(KubernetesClient client) {
		String everything = ShardRanges.of(0, 1).selector();
		Object list = operation(client).withShardSelector(everything)
			.list(new ListOptionsBuilder().withLimit(1L).build());
		ListMeta metadata = ((KubernetesResourceList<?>) list).getMetadata();
		return metadata != null && metadata.getShardInfo() != null;
	}

	private FilterWatchListDeletable<T, ?, ?> operation(KubernetesClient client) {
		MixedOperation<T, ?, ?> operation = InformerOperations.of(client, this.definition, usesWatchList());
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
			// the whole selector as one key without a value, which fabric8 sends as it
			// is: its
			// map by field would keep one requirement per field and not escape values
			filtered = filtered.withField(declaration.getFieldSelectorQuery(), null);
		}
		return filtered;
	}

	/**
	 * Return whether the next fabric8 informer gets its initial state from a watch-list:
	 * when declared, until the API server refused one.
	 */
	boolean usesWatchList() {
		return this.definition.getDeclaration().isWatchList() && !this.watchListRefused;
	}

	/**
	 * Replace a fabric8 informer whose watch-list the API server refused by one that
	 * lists and watches; every later informer of this watch lists too.
	 */
	synchronized void fallBackToList(InformerGeneration<T> refused, Throwable ex) {
		KubernetesClient client = this.client;
		if (!this.watchListRefused) {
			this.watchListRefused = true;
			logger.warn("Informer '" + this.definition.getName() + "'" + where()
					+ ": the API server refused a watch-list (informer.watch-list=true): "
					+ KubernetesErrors.describe(ex)
					+ "; listing and watching instead. Set informer.watch-list=false, or enable the API server's "
					+ "WatchList feature gate");
		}
		ListPermits permits = this.permits;
		if (this.closed || client == null || this.current != refused) {
			return;
		}
		InformerGeneration<T> next;
		try {
			next = new InformerGeneration<>(this, client, this.customizers);
		}
		catch (RuntimeException failure) {
			// a customizer (the application's code) threw: nothing is left to watch with
			this.status.transition(InformerState.FAILED, KubernetesErrors.describe(failure));
			this.synced.completeExceptionally(failure);
			return;
		}
		Collection<T> seen = this.missed.undo(refused.retire()).values();
		if (!seen.isEmpty()) {
			next.seed(seen);
		}
		this.current = next;
		// the list that replaces the refused watch-list waits for a permit as the first
		// did
		permits.run(() -> {
			if (this.current == next && !this.closed) {
				next.start(permits::release);
			}
			else {
				permits.release();
			}
		});
	}

	synchronized void stop() {
		halt();
		this.status.transition(InformerState.STOPPED, "stopped");
		this.synced.cancel(false);
	}

	/**
	 * Stop for good, dropping what waits for listeners, and report the watch
	 * {@link InformerState#FAILED} (see {@link BacklogOverflow}).
	 * @param reason the reason health gives
	 * @param message what happened and what to do
	 */
	synchronized void fail(String reason, String message) {
		if (this.closed) {
			return;
		}
		halt();
		this.status.failed(reason, message);
		this.synced.completeExceptionally(new IllegalStateException(message));
	}

	private void halt() {
		this.closed = true;
		cancelPendingReplacement();
		ListenerQueue queue = this.queue;
		if (queue != null) {
			queue.close();
		}
		InformerGeneration<T> generation = this.current;
		if (generation != null) {
			generation.retire();
		}
		this.missed.clear();
	}

	/**
	 * Leave the informer's namespace selection: stop the fabric8 informer now, then
	 * deliver, after what is queued, a delete flagged as having left the selection for
	 * each object listeners will have seen, then run {@code last}, then stop.
	 * @param last run on the queue after the deletes, before it closes
	 * @return a future that completes once stopped
	 */
	synchronized CompletableFuture<Void> leave(Runnable last) {
		CompletableFuture<Void> done = new CompletableFuture<>();
		InformerGeneration<T> generation = this.current;
		ListenerQueue queue = this.queue;
		if (this.closed || generation == null || queue == null) {
			// never started: nothing was delivered
			last.run();
			stop();
			done.complete(null);
			return done;
		}
		this.leaving = true;
		cancelPendingReplacement();
		this.missed.clear();
		for (T resource : generation.retire().values()) {
			ResourceDeletedEvent<T> event = new ResourceDeletedEvent<>(this.definition.getName(),
					this.definition.getResourceClass(), resource, false, true);
			queue.event(() -> deliver(EventType.DELETED, event));
		}
		queue.marker(() -> {
			try {
				last.run();
			}
			finally {
				stop();
				done.complete(null);
			}
		});
		return done;
	}

	/**
	 * Sample the watch connection and the last resourceVersion into the status, and
	 * replace a fabric8 informer that stopped working.
	 */
	void sample() {
		InformerGeneration<T> generation = this.current;
		if (this.closed || generation == null) {
			return;
		}
		this.status.watchObserved(generation.informer().isWatching());
		this.status.resourceVersionObserved(generation.informer().lastSyncResourceVersion());
		checkRecovery(generation);
	}

	private void checkRecovery(InformerGeneration<T> generation) {
		if (!this.status.isSynced() || !generation.isActive() || !generation.isStarted()) {
			return;
		}
		RecoveryOptions recovery = this.owner.getRecovery();
		if (!generation.informer().isRunning()) {
			scheduleReplacement(RelistReason.STOPPED, "fabric8 stopped the informer");
			return;
		}
		Instant listedAt = generation.listedAt();
		if (generation.isListing() || listedAt == null) {
			// fabric8 is listing, or retrying its list until the server answers: a
			// replacement
			// would only start the same list again, from the beginning
			return;
		}
		WatchSnapshot snapshot = this.status.snapshot();
		Instant notWatchingSince = snapshot.connection().notWatchingSince();
		if (snapshot.isFlapping(recovery.minAvailability(), recovery.availabilityWindow())) {
			scheduleReplacement(RelistReason.FLAPPING,
					"the watch keeps failing ("
							+ snapshot.availability()
								.reconnectsWithin(recovery.availabilityWindow(), snapshot.takenAt())
							+ " reconnects in " + recovery.availabilityWindow().toSeconds() + " s)");
		}
		else if (notWatchingSince != null) {
			// the watch of this informer cannot have been lost before its last list
			Instant since = notWatchingSince.isAfter(listedAt) ? notWatchingSince : listedAt;
			if (Duration.between(since, this.clock.instant()).compareTo(recovery.replaceStalledAfter()) > 0) {
				scheduleReplacement(RelistReason.STALLED,
						"no watch for more than " + recovery.replaceStalledAfter().toSeconds() + " s");
			}
		}
		else if (snapshot.availability().share() >= 0.9) {
			this.backOff.set(null);
		}
	}

	/**
	 * Stop the current fabric8 informer now and start a replacement, seeded with what
	 * listeners will have seen, after the next backoff interval. The old cache stays
	 * readable meanwhile and nothing is requested from the API server.
	 */
	synchronized void scheduleReplacement(RelistReason reason, String why) {
		ScheduledExecutorService scheduler = this.owner.getScheduler();
		InformerGeneration<T> generation = this.current;
		// callers judged the current generation; one retired already is a failed
		// replacement
		if (this.closed || this.leaving || scheduler == null || generation == null || this.pendingReplacement != null) {
			return;
		}
		BackOffExecution execution = this.backOff.get();
		if (execution == null) {
			execution = this.owner.getRecovery().backOff().start();
			this.backOff.set(execution);
		}
		long delay = execution.nextBackOff();
		if (delay == BackOffExecution.STOP) {
			execution = this.owner.getRecovery().backOff().start();
			this.backOff.set(execution);
			delay = execution.nextBackOff();
		}
		generation.retire();
		this.status.transition(InformerState.RECONNECTING, "replacing in " + delay + " ms: " + why);
		logger.warn("Informer '" + this.definition.getName() + "'" + where() + ": " + why
				+ "; replacing it with a fresh informer in " + delay + " ms");
		this.pendingReplacement = scheduler.schedule(() -> replace(reason), delay, TimeUnit.MILLISECONDS);
	}

	private synchronized void replace(RelistReason reason) {
		this.pendingReplacement = null;
		if (this.closed) {
			return;
		}
		try {
			this.status.resetAvailability();
			relist(reason);
		}
		catch (RuntimeException ex) {
			logger.warn("Replacing informer '" + this.definition.getName() + "'" + where() + " failed ("
					+ KubernetesErrors.describe(ex) + "); trying again");
			scheduleReplacement(reason, "the replacement failed");
		}
	}

	String where() {
		return (this.namespace != null) ? " in namespace " + this.namespace : "";
	}

	/**
	 * Publish a state change in order with the events: from the queue when it runs, else
	 * (stopped, or told from the delivery thread itself) at once.
	 */
	private void stateChanged(WatchStatus status, InformerState previous, InformerState current, String cause) {
		ListenerQueue queue = this.queue;
		if (queue == null || queue.isClosed() || queue.isDelivering()) {
			this.owner.stateChanged(status, previous, current, cause);
		}
		else {
			queue.marker(() -> this.owner.stateChanged(status, previous, current, cause));
		}
	}

	/**
	 * Publish, in order with the events queued now, each cached object that
	 * {@code gained} selects as a replayed add, a delete with final state unknown for
	 * each object deleted while this replica owed its changes, then a
	 * {@link ResourcesReplayedEvent}. Objects this replica does not publish by then are
	 * left out.
	 * @param gained the objects this replica took over
	 * @param reason why, as the replayed event says
	 */
	void replay(Predicate<? super T> gained, String reason) {
		ListenerQueue queue = this.queue;
		if (this.closed || queue == null) {
			return;
		}
		this.replayQueued.set(true);
		queue.marker(() -> {
			this.replayQueued.set(false);
			CachingItemStore<T> store = store();
			if (this.closed || store == null) {
				return;
			}
			// what this replica owed is replayed whole: every object it publishes
			boolean owed = this.missed.isOwed();
			Map<String, Optional<T>> missed = this.missed.take();
			int count = 0;
			for (T resource : store.values().toList()) {
				if ((owed || gained.test(resource)) && this.owner.gate().publishes(resource)) {
					deliver(EventType.ADDED, new ResourceAddedEvent<>(this.definition.getName(),
							this.definition.getResourceClass(), resource, true));
					count++;
				}
			}
			Map<String, T> cached = store.snapshot();
			missed.forEach((key, lastSeen) -> {
				if (lastSeen.isPresent() && !cached.containsKey(key)) {
					deliver(EventType.DELETED, new ResourceDeletedEvent<>(this.definition.getName(),
							this.definition.getResourceClass(), lastSeen.get(), true));
				}
			});
			publishReplayed(count, reason);
		});
	}

	/**
	 * Replay every owned object, as {@link #replay} does, if the delivery gate kept a
	 * change from listeners while this replica owed it and no replay is queued yet. Call
	 * once the gate publishes again.
	 * @param reason why, as the replayed event says
	 */
	void replayIfOwed(String reason) {
		if (this.missed.isOwed() && !this.replayQueued.get()) {
			replay((resource) -> true, reason);
		}
	}

	private void publishReplayed(int count, String reason) {
		ListenerQueue queue = this.queue;
		if (this.closed || queue == null) {
			return;
		}
		Runnable publish = () -> this.owner.getPublisher()
			.publish(new ResourcesReplayedEvent(this.definition.getName(), this.namespace, count, reason),
					() -> !this.closed);
		if (queue.isDelivering()) {
			publish.run();
		}
		else {
			queue.marker(publish);
		}
	}

	/**
	 * Deliver an event to the listeners, on the queue's thread, while this replica
	 * publishes it ({@code informer.delivery.mode}): the gate is asked before each
	 * listener, so that no listener is called once the Lease lapsed. What the gate keeps
	 * from listeners while this replica owes it is remembered and replayed.
	 */
	void deliver(EventType type, ResourceEvent<T> event) {
		if (this.closed) {
			return;
		}
		DeliveryGate gate = this.owner.gate();
		T resource = event.getResource();
		DeliveryGate.Verdict verdict = gate.verdict(resource);
		if (verdict != DeliveryGate.Verdict.PUBLISH) {
			if (verdict == DeliveryGate.Verdict.LAPSED) {
				this.missed.missed(event);
			}
			return;
		}
		if (gate != DeliveryGate.ALL) {
			replayIfOwed("lapse");
		}
		long started = System.nanoTime();
		int failures = this.owner.getPublisher().publish(event, () -> proceed(gate, event));
		Duration duration = Duration.ofNanos(System.nanoTime() - started);
		this.status.eventDelivered(type, failures);
		this.owner.getDeliveryObserver().delivered(this.owner.getName(), this.namespace, type, duration, failures);
	}

	/**
	 * Whether the next listener gets the event: not once stopped, nor once the gate
	 * closed (the rest of the event is then owed, if the Lease lapsed).
	 */
	private boolean proceed(DeliveryGate gate, ResourceEvent<T> event) {
		if (this.closed) {
			return false;
		}
		if (gate == DeliveryGate.ALL) {
			return true;
		}
		DeliveryGate.Verdict verdict = gate.verdict(event.getResource());
		if (verdict == DeliveryGate.Verdict.LAPSED) {
			this.missed.missed(event);
		}
		return verdict == DeliveryGate.Verdict.PUBLISH;
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
