package dev.informer.runtime;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.runtime.status.WatchInput;
import dev.informer.InformerDefinition;
import dev.informer.InformerState;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.runtime.kinds.InformerOperations;
import dev.informer.runtime.kinds.WatchConnection;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.runtime.replicas.GatedListeners;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.watch.EventType;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.RelistReason;

/**
 * One watch of a {@link ResourceInformer}: the whole informer, or one of its namespaces.
 * Wires the watch's pipeline when it starts (source → {@link ChangeLog change log} →
 * {@link ListenerQueue listener queue} → {@link GatedListeners replica gate} →
 * {@link OnChangeListeners on-change filter} → {@link CountingPublisher listeners}) and
 * swaps its source, the fabric8 informer ({@link WatchGeneration}), under one lock: to
 * start, relist, replace (recovery) and stop. A relist seeds the new generation with what
 * listeners will have seen, so that it delivers only the differences.
 * <p>
 * The listener queue outlives the generations of one start: listeners run on it, one
 * event at a time and in order, whatever generation is current. A relist or a replacement
 * therefore never waits for a listener, never interrupts one, and what the old generation
 * handed on is still delivered before anything of the new one.
 *
 * @param <T> the resource type
 */
final class ResourceWatch<T extends HasMetadata> {

	private static final Log logger = LogFactory.getLog(ResourceWatch.class);

	private final WatchContext<T> context;

	private final WatchEvents events;

	private final WatchSource<T> source = new WatchSource<>();

	/** How this watch takes objects over from another replica, and hands them over. */
	private final Takeovers<T> takeovers;

	private final Callbacks callbacks = new Callbacks();

	private volatile CompletableFuture<Void> synced = new CompletableFuture<>();

	private volatile @Nullable WatchStart start;

	private volatile boolean closed;

	/** Leaving the namespace selection: no relist or replacement any more. */
	private volatile boolean leaving;

	private volatile boolean watchListRefused;

	private volatile @Nullable Replacements<T> replacements;

	/**
	 * Create a watch; nothing runs until {@link #start}.
	 * @param definition what the informer watches
	 * @param namespace the namespace, {@code null} for all namespaces or cluster scope
	 * @param clock the clock for status times
	 * @param recovery how the informer recovers: the size of the availability window
	 * @param events what the informer is told
	 */
	ResourceWatch(InformerDefinition<T> definition, @Nullable String namespace, Clock clock, RecoveryOptions recovery,
			WatchEvents events) {
		this.events = events;
		WatchStatus status = new WatchStatus(namespace, definition.getDeclaration().getResyncPeriod(), clock,
				(changed, previous, current, cause) -> this.source
					.inOrder(() -> events.stateChanged(changed, previous, current, cause)),
				recovery.availabilitySamples(WatchMonitor.DEFAULT_PERIOD));
		status.observed().contents(this.source);
		this.context = new WatchContext<>(definition, namespace, status, clock);
		this.takeovers = new Takeovers<>(this.context, this.source, this);
	}

	@Nullable String getNamespace() {
		return this.context.namespace();
	}

	WatchStatus getStatus() {
		return this.context.status();
	}

	CompletableFuture<Void> synced() {
		return this.synced;
	}

	WatchSource<T> source() {
		return this.source;
	}

	boolean isWatching() {
		SharedIndexInformer<T> informer = this.source.informer();
		return informer != null && informer.isWatching();
	}

	/**
	 * Start watching, once {@code permits} lets this watch list. May be called again
	 * after {@link #stop()}: the watch then starts afresh, with a new initial list.
	 * @param start what the informer starts with
	 * @return a future that completes when the initial list has been delivered
	 */
	synchronized CompletableFuture<Void> start(WatchStart start) {
		return start(start, null);
	}

	/**
	 * Start watching as {@link #start(WatchStart)} does, taking over the deletes the
	 * pipeline of this namespace's previous watch still keeps (it left the selection and
	 * joined again): its gate delivers them before its replayed adds.
	 * @param start what the informer starts with
	 * @param left the previous watch's pipeline, closed here, or {@code null}
	 * @return a future that completes when the initial list has been delivered
	 */
	synchronized CompletableFuture<Void> start(WatchStart start, @Nullable Pipeline<T> left) {
		if (this.closed) {
			this.closed = false;
			this.synced = new CompletableFuture<>();
			getStatus().post(new WatchInput.Restarted());
		}
		this.start = start;
		WatchSettings settings = start.settings();
		cancelPendingReplacement();
		this.replacements = new Replacements<>(this.context, settings, this, this.callbacks);
		Pipeline<T> pipeline = Pipeline.create(this.context, start, this.source, this::fail);
		if (left != null) {
			left.listeners().handDeletesTo(pipeline.listeners());
			left.close();
		}
		this.source.pipeline(pipeline);
		WatchGeneration<T> generation = newGeneration(start, RelistReason.INITIAL);
		this.source.generation(generation);
		startWithPermit(start, generation);
		return this.synced;
	}

	private WatchGeneration<T> newGeneration(WatchStart start, RelistReason trigger) {
		Pipeline<T> pipeline = this.source.pipeline();
		if (pipeline == null) {
			throw new IllegalStateException("Informer '" + this.context.name() + "' is not running");
		}
		boolean watchList = this.context.definition().getDeclaration().isWatchList() && !this.watchListRefused;
		WatchConnection connection = new WatchConnection(getStatus().observed()::arrived);
		SkippedObjects<T> skipped = new SkippedObjects<>(this.context);
		SharedIndexInformer<T> informer = InformerOperations.informer(start.client(), this.context.definition(),
				this.context.namespace(), watchList, start.settings().shardSelector().get(), connection, skipped);
		// customizers are the application's code: if one throws, nothing was swapped yet
		return new WatchGeneration<>(this.context, pipeline, start.settings(), informer, connection, trigger, watchList,
				start.customizers(), this.callbacks, skipped);
	}

	/**
	 * Start a generation once a permit lets it list, unless it was swapped out or the
	 * watch stopped meanwhile.
	 */
	private void startWithPermit(WatchStart start, WatchGeneration<T> generation) {
		ListPermits permits = start.permits();
		permits.run(() -> {
			if (this.source.generation() == generation && !this.closed) {
				generation.start(permits::release);
			}
			else {
				permits.release();
			}
		});
	}

	/**
	 * Replace the fabric8 informer by a new one seeded with what listeners will have seen
	 * once the queue is delivered, so that its list delivers only the differences:
	 * unchanged objects (same resourceVersion) cause no event, changed ones an update,
	 * vanished ones a delete with final state unknown. Returns at once: events already
	 * queued are delivered first, and a listener that is busy is neither waited for nor
	 * interrupted.
	 * <p>
	 * The new informer lists once a {@link ListPermits list permit} is free, as an
	 * initial list does; no lock is held while waiting for it, and the old informer
	 * carries on meanwhile.
	 * @param trigger the reason, counted as the relist's trigger
	 * @return a future that completes when the new informer's list has been delivered, or
	 * fails if the new informer could not be created (a customizer threw) or the watch
	 * stopped while waiting for its permit
	 * @throws IllegalStateException if the watch does not run
	 */
	CompletableFuture<Void> relist(RelistReason trigger) {
		return relist(trigger, (ex) -> {
		});
	}

	/**
	 * Relist as {@link #relist(RelistReason)} does, telling {@code failedToStart} if the
	 * new informer could not be created once its permit came.
	 */
	private CompletableFuture<Void> relist(RelistReason trigger, Consumer<RuntimeException> failedToStart) {
		WatchStart start = this.start;
		if (this.closed || this.leaving || start == null) {
			throw new IllegalStateException("Informer '" + this.context.name() + "' is not running");
		}
		CompletableFuture<Void> relisted = new CompletableFuture<>();
		ListPermits permits = start.permits();
		permits.run(() -> {
			// once: the generation releases it when its list completes or fails, and so
			// does a start that fails here
			Runnable release = permits.releaseOnce();
			CompletableFuture<Void> listed = null;
			RuntimeException failure = null;
			synchronized (this) {
				if (this.closed || this.leaving || this.source.generation() == null) {
					release.run();
					relisted.completeExceptionally(new IllegalStateException(
							"Informer '" + this.context.name() + "' stopped before its relist could list"));
					return;
				}
				try {
					listed = relist(trigger, false, (resource) -> true, release);
				}
				catch (RuntimeException ex) {
					// a customizer (the application's code) threw
					release.run();
					failure = ex;
				}
			}
			if (listed == null) {
				relisted.completeExceptionally(failure);
				failedToStart.accept(failure);
				return;
			}
			listed.whenComplete((result, ex) -> {
				if (ex != null) {
					relisted.completeExceptionally(ex);
				}
				else {
					relisted.complete(null);
				}
			});
		});
		return relisted;
	}

	private synchronized CompletableFuture<Void> relist(RelistReason trigger, boolean replay,
			Predicate<? super T> delivered, Runnable releasePermit) {
		WatchStart start = this.start;
		WatchGeneration<T> old = this.source.generation();
		Pipeline<T> pipeline = this.source.pipeline();
		if (this.closed || this.leaving || start == null || old == null || pipeline == null) {
			throw new IllegalStateException("Informer '" + this.context.name() + "' is not running");
		}
		cancelPendingReplacement();
		WatchGeneration<T> next = newGeneration(start, trigger);
		boolean shardList = start.settings().shardSelector().get() != null;
		next.seed(pipeline.listeners().relistSeed(old.retire(), delivered, shardList));
		if (replay) {
			next.replayList();
		}
		this.source.generation(next);
		next.start(releasePermit);
		return next.listed();
	}

	/**
	 * Relist for a new shard range as {@link Takeovers#relistForRange} asks, under this
	 * watch's lock: seed the new informer only with the objects {@code delivered} selects
	 * of what listeners saw, the others arriving as adds flagged as replays.
	 * @param delivered the objects this replica published before, by its previous range
	 * @param releasePermit gives the list permit back
	 * @return a future that completes when the new informer's list has been delivered, or
	 * {@code null} if the watch stopped meanwhile (the permit is then given back)
	 * @throws RuntimeException if a customizer threw (the permit is then given back)
	 */
	synchronized @Nullable CompletableFuture<Void> relistForRange(Predicate<? super T> delivered,
			Runnable releasePermit) {
		if (this.closed || this.leaving || this.source.generation() == null) {
			// stopped meanwhile: it lists with the new range when it starts
			releasePermit.run();
			return null;
		}
		try {
			return relist(RelistReason.SHARD_RANGE, true, delivered, releasePermit);
		}
		catch (RuntimeException ex) {
			releasePermit.run();
			throw ex;
		}
	}

	/**
	 * Replace the fabric8 informer later, with backoff, as a stalled one is replaced.
	 * @param reason the reason, counted as the relist's trigger
	 * @param why what happened, for the log
	 */
	void replaceLater(RelistReason reason, String why) {
		Replacements<T> replacements = this.replacements;
		if (replacements != null) {
			replacements.schedule(reason, why);
		}
	}

	/**
	 * Return what this watch started with, {@code null} before its first start.
	 * @return the start
	 */
	@Nullable WatchStart currentStart() {
		return this.start;
	}

	/**
	 * Return whether the watch stopped (or failed) and was not started again.
	 * @return whether stopped
	 */
	boolean isStopped() {
		return this.closed;
	}

	/**
	 * Return how this watch takes objects over from another replica.
	 * @return the takeovers
	 */
	Takeovers<T> takeovers() {
		return this.takeovers;
	}

	/**
	 * Replace a generation whose watch-list the API server refused by one that lists and
	 * watches; every later generation of this watch lists too.
	 */
	private synchronized void fallBackToList(WatchGeneration<T> refused, Throwable ex) {
		if (!this.watchListRefused) {
			this.watchListRefused = true;
			logger.warn("Informer '" + this.context.name() + "'" + this.context.where()
					+ ": the API server refused a watch-list (informer.watch-list=true): "
					+ KubernetesErrors.describe(ex)
					+ "; listing and watching instead. Set informer.watch-list=false, or enable the API server's "
					+ "WatchList feature gate");
		}
		WatchStart start = this.start;
		Pipeline<T> pipeline = this.source.pipeline();
		if (this.closed || start == null || pipeline == null || this.source.generation() != refused) {
			return;
		}
		WatchGeneration<T> next;
		try {
			next = newGeneration(start, refused.firstTrigger());
		}
		catch (RuntimeException failure) {
			// a customizer (the application's code) threw: nothing is left to watch with
			getStatus().post(new WatchInput.GaveUp(KubernetesErrors.describe(failure), null));
			this.synced.completeExceptionally(failure);
			return;
		}
		Collection<T> seen = pipeline.listeners().relistSeed(refused.retire(), (resource) -> true, false);
		if (!seen.isEmpty()) {
			next.seed(seen);
		}
		this.source.generation(next);
		// the list that replaces the refused watch-list waits for a permit as the first
		// did
		startWithPermit(start, next);
	}

	synchronized void stop() {
		stop(true);
	}

	private synchronized void stop(boolean closePipeline) {
		halt(closePipeline);
		getStatus().post(new WatchInput.Stopped());
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
		getStatus().post(new WatchInput.GaveUp(message, reason));
		this.synced.completeExceptionally(new IllegalStateException(message));
	}

	private void halt() {
		halt(true);
	}

	private void halt(boolean closePipeline) {
		WatchGeneration<T> generation = this.source.generation();
		if (generation != null) {
			// first: a retired generation hands nothing more on
			generation.retire();
		}
		this.closed = true;
		cancelPendingReplacement();
		Pipeline<T> pipeline = this.source.pipeline();
		if (pipeline != null && closePipeline) {
			pipeline.close();
		}
	}

	/**
	 * Leave the informer's namespace selection: stop the fabric8 informer now, then
	 * deliver, after what is queued, a delete flagged as having left the selection for
	 * each object listeners will have seen, then run {@code last}, then stop. Deletes the
	 * gate kept back meanwhile (this replica's Lease lapsed, or another replica was to
	 * publish them) outlive the watch: its pipeline goes to {@code keep} instead of
	 * closing.
	 * @param last run on the queue after the deletes, before it closes
	 * @param keep takes the pipeline while its gate keeps deletes
	 * @return a future that completes once stopped
	 */
	synchronized CompletableFuture<Void> leave(Runnable last, Consumer<Pipeline<T>> keep) {
		CompletableFuture<Void> done = new CompletableFuture<>();
		WatchGeneration<T> generation = this.source.generation();
		Pipeline<T> pipeline = this.source.pipeline();
		if (this.closed || generation == null || pipeline == null) {
			// never started: nothing was delivered
			last.run();
			stop();
			done.complete(null);
			return done;
		}
		this.leaving = true;
		cancelPendingReplacement();
		pipeline.listeners().forgetMissed();
		InformerDefinition<T> definition = this.context.definition();
		for (T resource : generation.retire().values()) {
			ResourceDeletedEvent<T> event = new ResourceDeletedEvent<>(definition.getName(),
					definition.getResourceClass(), resource, false, true);
			pipeline.queue().event(() -> pipeline.listeners().deliver(EventType.DELETED, event));
		}
		pipeline.queue().marker(() -> {
			try {
				last.run();
			}
			finally {
				boolean keeps = pipeline.listeners().keepsDeletes();
				stop(!keeps);
				if (keeps) {
					keep.accept(pipeline);
				}
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
		WatchGeneration<T> generation = this.source.generation();
		if (generation != null) {
			this.takeovers.reached(this.source.lastResourceVersion());
		}
		Replacements<T> replacements = this.replacements;
		if (!this.closed && generation != null && replacements != null && replacements.sample(generation)) {
			this.events.cacheChanged();
		}
	}

	/**
	 * Read the API server's current resourceVersion into the status, to tell how far the
	 * cache is behind it (see {@link StalenessCheck}). Runs on the check's thread, on a
	 * connection of its own: a watch whose connection hangs does not stop it.
	 */
	void checkServerResourceVersion() {
		WatchStart start = this.start;
		if (this.closed || this.leaving || start == null || this.source.generation() == null) {
			return;
		}
		Instant at = this.context.clock().instant();
		try {
			String version = InformerOperations.currentResourceVersion(start.client(), this.context.definition(),
					this.context.namespace());
			if (version != null) {
				getStatus().observed().serverResourceVersionRead(version, at);
				// the server's version when the list answered, not when it was asked
				this.takeovers.reached(version);
			}
		}
		catch (RuntimeException ex) {
			getStatus().observed().serverResourceVersionReadFailed(KubernetesErrors.describe(ex));
		}
	}

	private void cancelPendingReplacement() {
		Replacements<T> replacements = this.replacements;
		if (replacements != null) {
			replacements.cancel();
		}
	}

	/**
	 * What the current generation tells this watch, and what its replacements need.
	 */
	private final class Callbacks implements WatchGeneration.Owner<T>, Replacements.Replaceable<T> {

		@Override
		public void synced(@Nullable Throwable failure) {
			if (failure != null) {
				ResourceWatch.this.synced.completeExceptionally(failure);
			}
			else {
				// publish the synced event first: startup waits on this future, and
				// listeners of that event must be done before the application goes on
				ResourceWatch.this.events.synced();
				ResourceWatch.this.synced.complete(null);
			}
		}

		@Override
		public void cacheChanged() {
			ResourceWatch.this.events.cacheChanged();
		}

		@Override
		public void stopped(WatchGeneration<T> generation, String why) {
			Replacements<T> replacements = ResourceWatch.this.replacements;
			if (replacements != null) {
				replacements.schedule(RelistReason.STOPPED, why);
			}
		}

		@Override
		public void watchListRefused(WatchGeneration<T> generation, Throwable refusal) {
			fallBackToList(generation, refusal);
		}

		@Override
		public boolean isReplaceable() {
			return !ResourceWatch.this.closed && !ResourceWatch.this.leaving;
		}

		@Override
		public @Nullable WatchGeneration<T> current() {
			return ResourceWatch.this.source.generation();
		}

		@Override
		public void relist(RelistReason reason, Consumer<RuntimeException> failedToStart) {
			ResourceWatch.this.relist(reason, failedToStart);
		}

	}

}
