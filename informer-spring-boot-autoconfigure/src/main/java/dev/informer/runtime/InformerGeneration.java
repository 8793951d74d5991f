package dev.informer.runtime;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.InformerCustomizer;
import dev.informer.InformerDeclaration;
import dev.informer.InformerSpec;
import dev.informer.InformerState;
import dev.informer.InvalidInformerDeclarationException;
import dev.informer.ResourcePath;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.changes.ChangeFilter;
import dev.informer.runtime.changes.ModelPathCheck;
import dev.informer.runtime.changes.PathIndexes;
import dev.informer.runtime.changes.Pruning;
import dev.informer.runtime.listeners.ListenerQueue;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.watch.EventType;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.ListObserver;
import dev.informer.watch.RelistReason;

/**
 * One fabric8 informer of a {@link NamespaceInformer}, with its cache: what a relist or a
 * replacement swaps. Turns fabric8's callbacks into events handed to the delivery queue
 * and into status. Once retired (stopped or replaced by a relist) it hands nothing more
 * to the queue and no longer touches the status; what it handed on before is still
 * delivered.
 *
 * @param <T> the resource type
 */
final class InformerGeneration<T extends HasMetadata> implements ResourceEventHandler<T>, ExceptionHandler {

	private static final Log logger = LogFactory.getLog(ResourceInformer.class);

	private final NamespaceInformer<T> watch;

	private final SharedIndexInformer<T> informer;

	private final CachingItemStore<T> store;

	private final PendingChanges<T> tracker = new PendingChanges<>();

	private final CompletableFuture<Void> listed = new CompletableFuture<>();

	/** Guards handing events to the queue against retirement. */
	private final Object handoff = new Object();

	private final AtomicReference<@Nullable Runnable> permit = new AtomicReference<>();

	private final AtomicReference<ListObserver.@Nullable Listing> listObservation = new AtomicReference<>();

	private volatile boolean retired;

	// guarded by handoff
	private @Nullable Map<String, T> seenAtRetirement;

	private volatile boolean started;

	/**
	 * Between fabric8's onBeforeList and its onList, retries of a failed list included.
	 */
	private volatile boolean listing;

	private volatile @Nullable Instant listedAt;

	/**
	 * Whether the adds of this generation's first list replay objects this replica took
	 * over (a relist for a new shard range).
	 */
	private volatile boolean replayList;

	private final boolean watchList;

	/** Set when the first list showed that the kind does not bump generation. */
	private volatile @Nullable InvalidInformerDeclarationException generationFailure;

	/** Set when the API server refused this informer's watch-list. */
	private volatile @Nullable Throwable watchListRefusal;

	InformerGeneration(NamespaceInformer<T> watch, KubernetesClient client, List<InformerCustomizer> customizers) {
		this.watch = watch;
		this.watchList = watch.usesWatchList();
		this.informer = watch.createInformer(client);
		List<Consumer<? super T>> transforms = new ArrayList<>();
		InformerDeclaration declaration = watch.definition().getDeclaration();
		if (!declaration.getPrune().isEmpty()) {
			// first: customizers' transforms see the object as it will be cached
			transforms.add(new Pruning<>(declaration.getPrune()));
		}
		if (!declaration.getIndexes().isEmpty()) {
			this.informer.addIndexers(PathIndexes.functions(declaration.getIndexes()));
		}
		InformerSpec<T> spec = watch.spec(this.informer, transforms);
		for (InformerCustomizer customizer : customizers) {
			customizer.customize(spec);
		}
		boolean strip = this.watch.definition().getDeclaration().isStripManagedFields();
		this.store = new CachingItemStore<>(strip, transforms, this.tracker, this::transformFailed);
		this.informer.itemStore(this.store);
		this.informer.exceptionHandler(this);
		this.informer.addEventHandler(this);
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
			if (isActive() && this.watch.getStatus().isSynced()) {
				this.watch.scheduleReplacement(RelistReason.STOPPED, "fabric8 stopped the informer"
						+ ((ex != null) ? " (" + KubernetesErrors.describe(KubernetesErrors.unwrap(ex)) + ")" : ""));
			}
		});
		CompletionStage<Void> starting;
		try {
			starting = this.informer.start();
		}
		catch (RuntimeException ex) {
			// retired (stopped or relisted) by another thread after its permit came:
			// fabric8
			// refuses to start an informer it stopped, and there is nothing left to start
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
				this.watch.getStatus().transition(InformerState.FAILED, KubernetesErrors.describe(cause));
				this.listed.completeExceptionally(cause);
				this.watch.synced().completeExceptionally(cause);
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
		Throwable refusal = this.watchListRefusal;
		if (refusal == null || !isActive()) {
			return false;
		}
		this.watch.fallBackToList(this, refusal);
		return true;
	}

	/**
	 * Whether the API server refused a watch-list: it answers a watch with
	 * {@code sendInitialEvents} or {@code resourceVersionMatch} it does not serve as
	 * invalid (HTTP 422, or 400 from older servers). fabric8 does not read the body of a
	 * refused WebSocket upgrade, so the code is all there is; a selector the server
	 * rejects fails the list that follows, and is reported there.
	 */
	static boolean isWatchListRefusal(Throwable ex) {
		int code = KubernetesErrors.httpCode(ex);
		return code == 400 || code == 422;
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
					.unmodifiableMap(this.tracker.seenByListeners(this.store.snapshot()));
			}
			seen = this.seenAtRetirement;
		}
		this.informer.stop();
		this.listed.cancel(false);
		releasePermit();
		endListing(this.listObservation.getAndSet(null));
		return seen;
	}

	private static void endListing(ListObserver.@Nullable Listing listing) {
		if (listing != null) {
			try {
				listing.ended();
			}
			catch (RuntimeException ex) {
				logger.warn("A list observer failed", ex);
			}
		}
	}

	boolean isActive() {
		return !this.retired && !this.watch.isClosed();
	}

	@Override
	public void onBeforeList(String resourceVersion) {
		this.listing = true;
		endListing(this.listObservation.getAndSet(this.watch.owner()
			.getListObserver()
			.listStarted(this.watch.definition().getName(), this.watch.getNamespace(),
					this.watch.getStatus().isSynced())));
		queueMarker(this.watch.getStatus()::listStarted);
	}

	@Override
	public void onList(String resourceVersion, boolean remainedEmpty) {
		this.listing = false;
		if (this.listedAt == null && this.watch.definition().isGeneric() && this.watch.changes().isActive()
				&& !this.watch.getStatus().isSynced()) {
			warnUnmatched();
		}
		endListing(this.listObservation.getAndSet(null));
		this.listedAt = this.watch.clock().instant();
		queueMarker(() -> {
			boolean first = this.watch.getStatus().listCompleted(this.store.size());
			InvalidInformerDeclarationException invalid = this.generationFailure;
			if (first && invalid != null) {
				// after the list's own transition, so that FAILED stays until a relist
				this.watch.getStatus().declarationFailed(invalid.getMessage());
				this.watch.synced().completeExceptionally(invalid);
			}
			else if (first) {
				// publish the synced event first: startup waits on this future, and
				// listeners of that event must be done before the application goes on
				this.watch.owner().namespaceSynced();
				this.watch.synced().complete(null);
			}
			this.listed.complete(null);
		});
		// last: releasing starts the next watch's list on this thread
		releasePermit();
	}

	private void queueMarker(Runnable action) {
		synchronized (this.handoff) {
			ListenerQueue queue = this.watch.queue();
			if (isActive() && queue != null) {
				// skipped if this informer retired meanwhile: its successor lists afresh
				queue.marker(() -> {
					if (isActive()) {
						action.run();
					}
				});
			}
		}
	}

	@Override
	public void onAdd(T resource) {
		if (this.watch.changes().lacksGeneration(resource) && !this.listed.isDone()) {
			generationNotBumped(resource);
		}
		boolean replay = this.replayList && !this.listed.isDone() && this.listedAt == null;
		handOff(resource, EventType.ADDED, new ResourceAddedEvent<>(this.watch.definition().getName(),
				this.watch.definition().getResourceClass(), resource, replay));
	}

	@Override
	public void onUpdate(T oldResource, T newResource) {
		ResourceUpdatedEvent<T> event = new ResourceUpdatedEvent<>(this.watch.definition().getName(),
				this.watch.definition().getResourceClass(), oldResource, newResource);
		handOff(newResource, event.isResync() ? EventType.RESYNC : EventType.UPDATED, event);
	}

	/**
	 * A kind watched without a model class has no fields to check paths against at
	 * startup: say so when the first list shows an {@code on-change} path that selects
	 * nothing in any object.
	 */
	private void warnUnmatched() {
		List<T> listed = this.store.values().toList();
		for (ResourcePath path : this.watch.changes().unmatched(listed)) {
			logger
				.warn("Informer '" + this.watch.definition().getName() + "'" + this.watch.where() + ": on-change path '"
						+ path + "' selects nothing in any of the " + listed.size() + " listed objects; check its "
						+ "spelling against the custom resource's schema: updates that change only other parts are "
						+ "not delivered");
		}
	}

	/**
	 * The first list shows that the kind does not bump {@code metadata.generation}
	 * although {@code on-change} compares it: once the list is delivered the watch goes
	 * to FAILED and the start fails, naming the property. Its updates are delivered,
	 * never held back (when startup does not wait, the watch carries on so).
	 */
	private void generationNotBumped(T resource) {
		if (this.generationFailure != null) {
			return;
		}
		InvalidInformerDeclarationException ex = ModelPathCheck
			.generationNotBumped(this.watch.definition().getDeclaration());
		this.generationFailure = ex;
		logger.error("Informer '" + this.watch.definition().getName() + "'" + this.watch.where() + ": "
				+ Cache.metaNamespaceKeyFunc(resource) + " has no metadata.generation; " + ex.getMessage()
				+ ". Its updates are delivered unfiltered. " + ex.getAction());
	}

	@Override
	public void onDelete(T resource, boolean deletedFinalStateUnknown) {
		handOff(resource, EventType.DELETED, new ResourceDeletedEvent<>(this.watch.definition().getName(),
				this.watch.definition().getResourceClass(), resource, deletedFinalStateUnknown));
	}

	/**
	 * Hand an event from fabric8's thread to the queue; the listeners get it there.
	 */
	private void handOff(T resource, EventType type, ResourceEvent<T> event) {
		String key = Cache.metaNamespaceKeyFunc(resource);
		synchronized (this.handoff) {
			ListenerQueue queue = this.watch.queue();
			if (!isActive() || queue == null) {
				return;
			}
			if (type != EventType.RESYNC) {
				// resyncs replay the cache: fabric8 queues them without changing it
				this.tracker.delivered(key);
				ResourceEvent<T> filtered = filter(key, type, event);
				if (filtered == null) {
					this.watch.getStatus().eventFiltered();
					return;
				}
				queue.event(key, type, filtered, this.watch::deliver, () -> {
				});
			}
			else if (!this.tracker.isPending(key) && this.watch.resyncsQueued().add(key)) {
				// a change of this object not handed on yet (an add held back until a
				// list
				// completes, an update fabric8 stored but has not queued) reaches
				// listeners
				// after this resync would: replaying its state now would run ahead of it
				queue.event(key, type, event, this.watch::deliver, () -> this.watch.resyncsQueued().remove(key));
			}
		}
	}

	/**
	 * Apply {@code on-change}: an update carries the state last delivered as its old one,
	 * or is held back when none of the declared parts changed since; adds and deletes
	 * pass (a relist's delete with final state unknown too). Resyncs do not come here:
	 * they replay the cache, change nothing and are delivered as before.
	 */
	private @Nullable ResourceEvent<T> filter(String key, EventType type, ResourceEvent<T> event) {
		ChangeFilter<T> changes = this.watch.changes();
		if (!changes.isActive()) {
			return event;
		}
		if (event instanceof ResourceUpdatedEvent<T> update) {
			T old = changes.updated(key, update.getOldResource(), update.getResource());
			if (old == null) {
				return null;
			}
			return (old == update.getOldResource()) ? event
					: new ResourceUpdatedEvent<>(this.watch.definition().getName(),
							this.watch.definition().getResourceClass(), old, update.getResource());
		}
		if (type == EventType.DELETED) {
			changes.deleted(key);
		}
		else {
			changes.added(key, event.getResource());
		}
		return event;
	}

	private void transformFailed(String key, Throwable ex) {
		if (isActive()) {
			this.watch.getStatus().transformFailed(key, ex);
			logger.warn("Informer '" + this.watch.definition().getName() + "'" + this.watch.where()
					+ ": a transform failed on " + key + " (" + ex.getClass().getName()
					+ "); the object is cached and delivered as it was before that transform");
			logger.debug("Transform failure on " + key, ex);
		}
	}

	@Override
	public boolean retryAfterException(boolean isStarted, Throwable ex) {
		try {
			releasePermit();
			if (!isActive()) {
				return false;
			}
			if (this.watchList && isWatchListRefusal(ex)) {
				this.watchListRefusal = ex;
				return false;
			}
			WatchStatus status = this.watch.getStatus();
			status.errorOccurred(ex);
			ListObserver.Listing listing = this.listObservation.get();
			if (listing != null) {
				listing.failed(ex);
			}
			// a relist's informer has not started, but the watch had synced before
			boolean retry = this.watch.owner().getRetryPolicy().shouldRetry(isStarted || status.isSynced(), ex);
			String name = this.watch.definition().getName();
			if (retry) {
				logger.warn("Informer '" + name + "'" + this.watch.where() + ": " + KubernetesErrors.describe(ex)
						+ "; retrying with backoff");
			}
			else {
				logger.error("Informer '" + name + "'" + this.watch.where() + ": " + KubernetesErrors.describe(ex)
						+ "; not retrying");
			}
			return retry;
		}
		catch (Throwable unexpected) {
			// fabric8 wedges an informer whose exception handler throws: retry instead
			logger.error(
					"Informer '" + this.watch.definition().getName() + "': handling an error failed; retrying anyway",
					unexpected);
			return true;
		}
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

	CachingItemStore<T> store() {
		return this.store;
	}

	PendingChanges<T> tracker() {
		return this.tracker;
	}

	boolean isStarted() {
		return this.started;
	}

	boolean isListing() {
		return this.listing;
	}

	@Nullable Instant listedAt() {
		return this.listedAt;
	}

}
