package dev.informer.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.runtime.status.WatchInput;
import dev.informer.InformerCustomizer;
import dev.informer.InvalidInformerDeclarationException;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.kinds.WatchConnection;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.watch.EventType;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.RelistReason;

/**
 * The source stage of a watch: one fabric8 informer with its cache, what a relist or a
 * replacement swaps. Turns fabric8's callbacks into events handed to the pipeline's
 * listener queue (an update to a new uid as a delete then an add), and into status. Tells
 * its watch only what the watch decides on, through {@link Owner}. Once retired (stopped
 * or replaced) it hands nothing more on and no longer touches the status; what it handed
 * on before is still delivered.
 *
 * @param <T> the resource type
 */
final class WatchGeneration<T extends HasMetadata> implements ResourceEventHandler<T>, ExceptionHandler {

	private static final Log logger = LogFactory.getLog(WatchGeneration.class);

	private static final Runnable NOTHING = () -> {
	};

	private final WatchContext<T> context;

	private final Pipeline<T> pipeline;

	private final WatchSettings settings;

	private final Owner<T> owner;

	private final SharedIndexInformer<T> informer;

	private final CachingItemStore<T> store;

	private final PendingChanges<T> pending = new PendingChanges<>();

	private final CompletableFuture<Void> listed = new CompletableFuture<>();

	/** Guards handing events to the queue against retirement. */
	private final Object handoff = new Object();

	/**
	 * The deletes a list found (objects it no longer holds), held until fabric8 says
	 * which resourceVersion the list had: the version at which they were observed absent.
	 */
	private final List<T> listedDeletes = new ArrayList<>();

	private final AtomicReference<@Nullable Runnable> permit = new AtomicReference<>();

	private final ListProgress lists;

	private final RelistReason firstTrigger;

	private volatile boolean retired;

	// guarded by handoff
	private @Nullable Map<String, T> seenAtRetirement;

	private volatile boolean started;

	/** Whether its start failed for good: not retried. */
	private volatile boolean failed;

	/**
	 * Whether the adds of this generation's first list replay objects this replica took
	 * over (a relist for a new shard range).
	 */
	private volatile boolean replayList;

	private final FirstListChecks<T> checks;

	private final WatchConnection connection;

	private final GenerationErrors errors;

	private final SkippedObjects<T> skipped;

	/**
	 * Create a generation around a fabric8 informer not started yet, and let the
	 * application's customizers see it (if one throws, nothing was swapped yet).
	 * @param context the watch
	 * @param pipeline where events go
	 * @param settings what the watch runs with
	 * @param informer the fabric8 informer
	 * @param connection its watch connection
	 * @param trigger why it lists first
	 * @param watchList whether the informer gets its initial state from a watch-list
	 * @param customizers the application's customizers
	 * @param owner what the watch is told
	 * @param skipped what the informer's serialization says about objects that do not
	 * decode
	 */
	WatchGeneration(WatchContext<T> context, Pipeline<T> pipeline, WatchSettings settings,
			SharedIndexInformer<T> informer, WatchConnection connection, RelistReason trigger, boolean watchList,
			List<InformerCustomizer> customizers, Owner<T> owner, SkippedObjects<T> skipped) {
		this.context = context;
		this.connection = connection;
		this.pipeline = pipeline;
		this.settings = settings;
		this.owner = owner;
		this.informer = informer;
		this.lists = new ListProgress(context, settings.listObserver(), trigger);
		this.firstTrigger = trigger;
		this.errors = new GenerationErrors(context, settings.retryPolicy(), this.lists, watchList, this::isActive);
		this.checks = new FirstListChecks<>(context, pipeline.changes().filter());
		List<Consumer<? super T>> transforms = CustomizerView.customize(context, informer, customizers);
		this.store = new CachingItemStore<>(context.definition().getDeclaration().isStripManagedFields(), transforms,
				this.pending, this.errors::transformFailed, owner::cacheChanged);
		informer.itemStore(this.store);
		this.skipped = skipped;
		skipped.bind(this.store::get, this::isActive);
		informer.exceptionHandler(this);
		informer.addEventHandler(this);
	}

	/**
	 * Return the watch connection of the fabric8 informer.
	 * @return the connection
	 */
	WatchConnection connection() {
		return this.connection;
	}

	/**
	 * Flag the adds of the first list as replays: they are objects this replica took
	 * over, not new ones.
	 */
	void replayList() {
		this.replayList = true;
	}

	void seed(Collection<T> initialState) {
		this.store.expectInitialState(initialState);
		// fabric8 then lists afresh (not from the watch cache) and compares
		// resourceVersions
		this.informer.initialState(List.copyOf(initialState).stream());
	}

	/**
	 * Start the fabric8 informer.
	 * @param releasePermit run once when the first list completed or failed, or
	 * {@code null}
	 */
	void start(@Nullable Runnable releasePermit) {
		this.permit.set(releasePermit);
		// fabric8 stops an informer for good on some errors: replace it, do not let it
		// sit dead while health says UP
		this.informer.stopped().whenComplete((result, ex) -> {
			if (fellBackToList()) {
				return;
			}
			if (isActive() && status().isSynced()) {
				this.owner.stopped(this, "fabric8 stopped the informer"
						+ ((ex != null) ? " (" + KubernetesErrors.describe(KubernetesErrors.unwrap(ex)) + ")" : ""));
			}
		});
		CompletionStage<Void> starting;
		try {
			starting = this.informer.start();
		}
		catch (RuntimeException ex) {
			// retired (stopped or relisted) by another thread after its permit came:
			// fabric8 refuses to start an informer it stopped, and there is nothing left
			// to start
			releasePermit();
			if (isActive()) {
				throw ex;
			}
			return;
		}
		starting.whenComplete((result, ex) -> {
			releasePermit();
			if (ex != null && fellBackToList()) {
				return;
			}
			if (ex != null && isActive()) {
				Throwable cause = KubernetesErrors.unwrap(ex);
				// what is still queued of the list that failed (its start) changes
				// nothing
				// any more: FAILED stays, and startup can already read it
				this.failed = true;
				status().post(new WatchInput.GaveUp(KubernetesErrors.describe(cause), null));
				this.listed.completeExceptionally(cause);
				this.owner.synced(cause);
			}
		});
		// only now does fabric8 say it runs: a sample in between must not take it for
		// stopped
		this.started = true;
	}

	/**
	 * Hand over to an informer that lists, if the API server refused this one's
	 * watch-list (fabric8 itself never falls back: it stops).
	 */
	private boolean fellBackToList() {
		Throwable refusal = this.errors.watchListRefusal();
		if (refusal == null || !isActive()) {
			return false;
		}
		this.owner.watchListRefused(this, refusal);
		return true;
	}

	private void releasePermit() {
		Runnable release = this.permit.getAndSet(null);
		if (release != null) {
			try {
				release.run();
			}
			catch (RuntimeException ex) {
				// the next watch's start failed: its own status says why, not this one's
				logger.warn("Starting the next informer waiting for a list permit failed", ex);
			}
		}
	}

	/**
	 * Retire this informer: hand nothing more to the queue, stop fabric8's informer, and
	 * return what listeners will have seen once the queue is delivered: the cache, less
	 * the changes fabric8 had not handed on (it drops them when it stops).
	 * @return the objects listeners will have seen by key, the same on every call
	 */
	Map<String, T> retire() {
		Map<String, T> seen;
		synchronized (this.handoff) {
			if (this.seenAtRetirement == null) {
				this.retired = true;
				this.seenAtRetirement = Collections
					.unmodifiableMap(this.pending.seenByListeners(this.store.snapshot()));
			}
			seen = this.seenAtRetirement;
		}
		this.informer.stop();
		this.listed.cancel(false);
		releasePermit();
		this.lists.stopped();
		return seen;
	}

	boolean isActive() {
		return !this.retired;
	}

	@Override
	public void onBeforeList(String resourceVersion) {
		RelistReason trigger = this.lists.started();
		queueMarker(() -> status().post(new WatchInput.ListStarted(trigger)));
	}

	@Override
	public void onList(String resourceVersion, boolean remainedEmpty) {
		handOffListedDeletes(resourceVersion);
		if (this.lists.listedAt() == null && !status().isSynced()) {
			this.checks.listed(this.store::values);
		}
		this.lists.completed();
		queueMarker(() -> {
			boolean first = status().post(new WatchInput.ListCompleted(this.store.size())).firstSync();
			InvalidInformerDeclarationException invalid = this.checks.failure();
			if (first && invalid != null) {
				// after the list's own transition, so that FAILED stays until a relist
				status().post(new WatchInput.GaveUp(invalid.getMessage(), "InvalidDeclaration"));
				this.owner.synced(invalid);
			}
			else if (first) {
				this.owner.synced(null);
			}
			this.listed.complete(null);
		});
		// last: releasing starts the next watch's list on this thread
		releasePermit();
	}

	private void queueMarker(Runnable action) {
		synchronized (this.handoff) {
			if (isActive()) {
				// skipped if this informer retired meanwhile: its successor lists afresh
				this.pipeline.queue().marker(() -> {
					if (isActive() && !this.failed) {
						action.run();
					}
				});
			}
		}
	}

	@Override
	public void onAdd(T resource) {
		if (!this.listed.isDone()) {
			this.checks.added(resource);
		}
		boolean replay = this.replayList && !this.listed.isDone() && this.lists.listedAt() == null;
		this.skipped.decoded(resource);
		handOff(resource, EventType.ADDED,
				new ResourceAddedEvent<>(this.context.name(), resourceType(), resource, replay));
	}

	@Override
	public void onUpdate(T oldResource, T newResource) {
		if (!Objects.equals(oldResource.getMetadata().getUid(), newResource.getMetadata().getUid())) {
			// a relist found the name deleted and created again: a delete of the old
			// object, then an add of the new, each judged on its own by the gate (the
			// old uid's owner delivers the delete) and neither filtered
			handOff(newResource, EventType.DELETED,
					new ResourceDeletedEvent<>(this.context.name(), resourceType(), oldResource, true),
					new ResourceAddedEvent<>(this.context.name(), resourceType(), newResource));
			return;
		}
		ResourceUpdatedEvent<T> event = new ResourceUpdatedEvent<>(this.context.name(), resourceType(), oldResource,
				newResource);
		if (!event.isResync()) {
			this.skipped.decoded(newResource);
		}
		handOff(newResource, event.isResync() ? EventType.RESYNC : EventType.UPDATED, event);
	}

	@Override
	public void onDelete(T resource, boolean deletedFinalStateUnknown) {
		if (deletedFinalStateUnknown) {
			this.skipped.handedOnAsDeleted(resource);
			// a list no longer holds it: fabric8 tells the list's resourceVersion next
			// (onList), before anything else of this informer
			synchronized (this.listedDeletes) {
				this.listedDeletes.add(resource);
			}
			return;
		}
		// an object that stopped decoding is handed on as deleted: its final state is
		// unknown, as a relist would find it, and listeners get the last state they saw,
		// observed deleted at the version that does not decode
		T lastDecoded = this.skipped.handedOnAsDeleted(resource);
		if (lastDecoded != null) {
			handOff(lastDecoded, EventType.DELETED, new ResourceDeletedEvent<>(this.context.name(), resourceType(),
					lastDecoded, true, false, 0, false, resource.getMetadata().getResourceVersion()));
			return;
		}
		handOff(resource, EventType.DELETED,
				new ResourceDeletedEvent<>(this.context.name(), resourceType(), resource, false));
	}

	/**
	 * Run an action with what listeners will have been handed once the events queued now
	 * are delivered: the cache, less the changes fabric8 has not handed on yet. Atomic
	 * with the hand-off, so that a change handed on later is queued after whatever the
	 * action queues (a replay waiting behind a slow listener replays the state it was
	 * asked for, and the changes made since reach listeners as they happened).
	 * @param action the action
	 */
	void handedOn(Consumer<Map<String, T>> action) {
		synchronized (this.handoff) {
			action.accept(this.pending.seenByListeners(this.store.snapshot()));
		}
	}

	/**
	 * Hand on the deletes the list found, observed at the list's resourceVersion: the API
	 * server had no object under their names then.
	 */
	private void handOffListedDeletes(@Nullable String resourceVersion) {
		List<T> deleted;
		synchronized (this.listedDeletes) {
			deleted = List.copyOf(this.listedDeletes);
			this.listedDeletes.clear();
		}
		for (T resource : deleted) {
			handOff(resource, EventType.DELETED, new ResourceDeletedEvent<>(this.context.name(), resourceType(),
					resource, true, false, 0, false, resourceVersion));
		}
	}

	/**
	 * Hand an event from fabric8's thread to the pipeline: the listener queue, where the
	 * gate, the on-change filter and the listeners get it.
	 */
	private void handOff(T resource, EventType type, ResourceEvent<T> event) {
		handOff(resource, type, event, null);
	}

	/**
	 * Hand one change of fabric8's on, as one event or, for a new uid, as a delete then
	 * an add.
	 */
	private void handOff(T resource, EventType type, ResourceEvent<T> event, @Nullable ResourceEvent<T> added) {
		String key = Cache.metaNamespaceKeyFunc(resource);
		ChangeLog<T> changes = this.pipeline.changes();
		synchronized (this.handoff) {
			if (!isActive()) {
				return;
			}
			if (type != EventType.RESYNC) {
				// resyncs replay the cache: fabric8 queues them without changing it
				this.pending.delivered(key);
				this.pipeline.queue().event(key, type, event, this.pipeline.listeners()::deliver, NOTHING);
				if (added != null) {
					this.pipeline.queue()
						.event(key, EventType.ADDED, added, this.pipeline.listeners()::deliver, NOTHING);
				}
			}
			else if (!this.pending.isPending(key) && changes.resyncQueued(key)) {
				// a change of this object not handed on yet (an add held back until a
				// list completes, an update fabric8 stored but has not queued) reaches
				// listeners after this resync would: replaying its state now would run
				// ahead of it
				this.pipeline.queue()
					.event(key, type, event, this.pipeline.listeners()::deliver, () -> changes.resyncTaken(key));
			}
		}
	}

	@Override
	public boolean retryAfterException(boolean isStarted, Throwable ex) {
		releasePermit();
		return this.errors.retry(isStarted, ex);
	}

	private WatchStatus status() {
		return this.context.status();
	}

	private Class<T> resourceType() {
		return this.context.definition().getResourceClass();
	}

	/**
	 * Return a future that completes when this informer's first list has been delivered.
	 * @return the future
	 */
	CompletableFuture<Void> listed() {
		return this.listed;
	}

	SharedIndexInformer<T> informer() {
		return this.informer;
	}

	/**
	 * Return why this informer was created: its first list's reason.
	 * @return the reason
	 */
	RelistReason firstTrigger() {
		return this.firstTrigger;
	}

	CachingItemStore<T> store() {
		return this.store;
	}

	PendingChanges<T> pending() {
		return this.pending;
	}

	boolean isStarted() {
		return this.started;
	}

	ListProgress lists() {
		return this.lists;
	}

	/**
	 * What a generation tells its watch: only what the watch decides on.
	 *
	 * @param <T> the resource type
	 */
	interface Owner<T extends HasMetadata> {

		/**
		 * The watch's first list has been delivered, or its start failed.
		 * @param failure why the start failed, {@code null} when synced
		 */
		void synced(@Nullable Throwable failure);

		/**
		 * The generation's cache stored or removed an object; told on fabric8's thread,
		 * after the change.
		 */
		void cacheChanged();

		/**
		 * fabric8 stopped a generation of a synced watch for good: replace it.
		 * @param generation the generation
		 * @param why what happened
		 */
		void stopped(WatchGeneration<T> generation, String why);

		/**
		 * The API server refused a generation's watch-list: list and watch instead.
		 * @param generation the refused generation
		 * @param refusal the error
		 */
		void watchListRefused(WatchGeneration<T> generation, Throwable refusal);

	}

}
