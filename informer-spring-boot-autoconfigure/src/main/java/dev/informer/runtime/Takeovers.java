package dev.informer.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.runtime.kinds.InformerOperations;
import dev.informer.runtime.replicas.GatedListeners;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.RelistReason;

/**
 * How one watch of a replica takes objects over from another replica, as the group's new
 * leader or as a member whose shard range grew, and hands them over. It replays them
 * (and, with the API server's shard selectors, first relists for the new range), and
 * catches up on their deletes that nobody may have delivered: the replica that published
 * the objects may have been cut off before it saw them deleted, and this replica may have
 * listed again across that time (its watch replaced, restarted or relisted), so that
 * neither its cache nor its tombstones hold them. It remembers the resourceVersions its
 * watch reached ({@link VersionHistory}), and watches from the one it had reached a
 * window before the takeover, keeping what was deleted since as deletes a replay
 * delivers.
 *
 * @param <T> the resource type
 */
final class Takeovers<T extends HasMetadata> {

	private static final Log logger = LogFactory.getLog(Takeovers.class);

	/** How long the watch that catches up waits at most. */
	private static final Duration BOUND = Duration.ofSeconds(5);

	private final WatchContext<T> context;

	private final WatchSource<T> source;

	private final ResourceWatch<T> watch;

	private final VersionHistory versions = new VersionHistory();

	Takeovers(WatchContext<T> context, WatchSource<T> source, ResourceWatch<T> watch) {
		this.context = context;
		this.source = source;
		this.watch = watch;
	}

	/**
	 * Publish each cached object that {@code gained} selects as a replayed add, in order
	 * with the events queued now, as {@link GatedListeners#replay} does.
	 * @param gained the objects this replica took over
	 * @param reason why, as the replayed event says
	 */
	void replay(Predicate<? super T> gained, String reason) {
		GatedListeners<T> gate = gate();
		if (gate != null) {
			gate.replay(gained, reason);
		}
	}

	/**
	 * Replay every owned object if the gate kept back a change this replica owed, as
	 * {@link GatedListeners#replayIfOwed} does.
	 * @param reason why, as the replayed event says
	 */
	void replayIfOwed(String reason) {
		Pipeline<T> pipeline = this.source.pipeline();
		if (pipeline != null) {
			pipeline.listeners().replayIfOwed(reason);
		}
	}

	/**
	 * Remember the cached objects {@code moved} selects as handed over to another member
	 * ({@link GatedListeners#handOver}).
	 * @param moved the objects whose range moved to another member
	 */
	void handOver(Predicate<? super T> moved) {
		GatedListeners<T> gate = gate();
		if (gate != null) {
			gate.handOver(moved);
		}
	}

	/**
	 * Deliver the deletes this replica owes of what another replica publishes now, as
	 * {@link GatedListeners#deliverOwedDeletes} does.
	 */
	void deliverOwedDeletes() {
		GatedListeners<T> gate = gate();
		if (gate != null) {
			gate.deliverOwedDeletes();
		}
	}

	/**
	 * Take over the cached objects {@code gained} selects from another replica, which may
	 * not have delivered their deletes: replay them now, as
	 * {@link GatedListeners#takeOver} does, then catch up on their deletes since
	 * {@code since} and replay those, each followed by the object now under its name
	 * ({@link GatedListeners#replayDeletes}).
	 * @param gained the objects this replica took over
	 * @param since from when their deletes may have been delivered by nobody
	 * @param reason why, as the replayed events say
	 */
	void takeOver(Predicate<? super T> gained, Instant since, String reason) {
		// before the replay: what the watch reached at the takeover
		String from = from(since);
		String until = this.source.lastResourceVersion();
		GatedListeners<T> gate = gate();
		if (gate != null) {
			gate.takeOver(gained, reason);
		}
		WatchStart start = this.watch.currentStart();
		if (start == null || gate == null) {
			return;
		}
		if (from == null) {
			// no version recorded yet: the watch started after the window began (a
			// replica that just started), and listed all it could know
			logger.debug("Informer '" + this.context.name() + "'" + this.context.where()
					+ ": no resourceVersion recorded by " + since + " to catch up on deletes from");
			return;
		}
		// one more watch per watch of the informer: as many at once as may list at once
		ListPermits permits = start.permits();
		permits.run(() -> {
			Runnable release = permits.releaseOnce();
			try {
				// a watch between two generations has no version yet: the server's
				String target = (until != null) ? until : InformerOperations.currentResourceVersion(start.client(),
						this.context.definition(), this.context.namespace());
				catchUp(start.client(), start.settings().shardSelector().get(), from, target, gained,
						(deleted) -> gate.replayDeletes(deleted, reason))
					.whenComplete((ignored, ex) -> release.run());
			}
			catch (RuntimeException ex) {
				release.run();
				logger.warn("Informer '" + this.context.name() + "'" + this.context.where()
						+ ": could not catch up on the deletes of the objects it took over since resourceVersion "
						+ from + " (" + KubernetesErrors.describe(ex)
						+ "); a delete made while no replica watched them is not delivered");
			}
		});
	}

	/**
	 * Relist for a new shard range, once a list permit lets this watch list, seeding the
	 * new informer only with the objects {@code delivered} selects of what listeners saw
	 * (the others arrive as adds flagged as replays); then catch up on the deletes made
	 * in the new range since {@code since}, and replay every object of the range, those
	 * deletes first. A relist that fails is retried as a replacement, with backoff: the
	 * watch never stays on the old range.
	 * @param delivered the objects this replica published before, by its previous range
	 * @param since from when the deletes of the new range may have been delivered by
	 * nobody
	 */
	void relistForRange(Predicate<? super T> delivered, Instant since) {
		WatchStart start = this.watch.currentStart();
		if (start == null) {
			// never started: it lists with the new range when it starts
			return;
		}
		// before the relist: the new list's versions are no start for what it missed
		String from = from(since);
		ListPermits permits = start.permits();
		permits.run(() -> {
			CompletableFuture<Void> listed;
			try {
				listed = this.watch.relistForRange(delivered, permits.releaseOnce());
			}
			catch (RuntimeException ex) {
				// a customizer (the application's code) threw
				logger.warn("Informer '" + this.context.name() + "'" + this.context.where()
						+ ": relisting for a new shard range failed (" + KubernetesErrors.describe(ex)
						+ "); trying again");
				this.watch.replaceLater(RelistReason.SHARD_RANGE, "relisting for a new shard range failed");
				return;
			}
			if (listed == null) {
				return;
			}
			listed
				.thenCompose((ignored) -> keepDeletes(start.client(), start.settings().shardSelector().get(), from,
						this.source.lastResourceVersion(), gate()))
				.whenComplete((ignored, ex) -> {
					if (ex == null) {
						// after the list's events: every object of the range, so that the
						// ResourcesReplayedEvent covers the whole range as it says
						replay((resource) -> true, "shard-range");
					}
				});
		});
	}

	private @Nullable T cached(String key) {
		CachingItemStore<T> store = this.source.store();
		return (store != null) ? store.get(key) : null;
	}

	private @Nullable GatedListeners<T> gate() {
		Pipeline<T> pipeline = this.source.pipeline();
		return (!this.watch.isStopped() && pipeline != null) ? pipeline.listeners() : null;
	}

	/**
	 * Record a resourceVersion reached now: the watch's own, or the API server's.
	 * @param resourceVersion the resourceVersion, or {@code null}
	 */
	void reached(@Nullable String resourceVersion) {
		this.versions.reached(resourceVersion, this.context.clock().instant());
	}

	/**
	 * Return where to catch up from: the resourceVersion reached at {@code since}. Ask
	 * before relisting: the new list's versions are no start for what it missed.
	 */
	private @Nullable String from(Instant since) {
		return this.versions.at(since);
	}

	/**
	 * Find the objects {@code gained} selects that were deleted after {@code from}, by a
	 * watch from {@code from} until {@code until}
	 * ({@link InformerOperations#deletedSince}) with the shard selector {@code selector},
	 * and give them, if any, to {@code deleted}. Every one is given, those this replica
	 * delivered itself too: a delete delivered twice is harmless (a listener removes what
	 * it does not hold: nothing); one older than what the API server keeps is lost, and
	 * logged. Never completes exceptionally.
	 * @param client the application's client
	 * @param selector the watch's shard selector, or {@code null} for all objects
	 * @param from where to start, see {@link #from}
	 * @param until the resourceVersion the watch reached
	 * @param gained the objects taken over
	 * @param deleted takes the deleted objects, each in its last state
	 * @return when done
	 */
	private CompletableFuture<Void> catchUp(KubernetesClient client, @Nullable String selector, @Nullable String from,
			@Nullable String until, Predicate<? super T> gained, Consumer<List<T>> deleted) {
		if (from == null || until == null) {
			return CompletableFuture.completedFuture(null);
		}
		CompletableFuture<List<T>> found;
		try {
			found = InformerOperations.deletedSince(client, this.context.definition(), this.context.namespace(),
					selector, from, until, BOUND, this::cached);
		}
		catch (RuntimeException ex) {
			found = CompletableFuture.failedFuture(ex);
		}
		return found.handle((objects, ex) -> {
			if (ex != null) {
				logger.warn("Informer '" + this.context.name() + "'" + this.context.where()
						+ ": could not catch up on the deletes of the objects it took over since resourceVersion "
						+ from + " (" + KubernetesErrors.describe(ex)
						+ "); a delete made while no replica watched them is not delivered");
				return null;
			}
			List<T> taken = objects.stream().filter(gained).toList();
			if (!taken.isEmpty()) {
				logger.info("Informer '" + this.context.name() + "'" + this.context.where() + ": " + taken.size()
						+ " objects it took over were deleted since resourceVersion " + from
						+ "; they are replayed as deletes");
				deleted.accept(taken);
			}
			return null;
		});
	}

	/**
	 * Catch up, as {@link #catchUp} does, and hand what it finds to {@code gate} as
	 * deletes its next replay delivers.
	 * @param client the application's client
	 * @param selector the watch's shard selector, or {@code null} for all objects
	 * @param from where to start, see {@link #from}
	 * @param until the resourceVersion the watch reached
	 * @param gate the watch's gate, or {@code null} when it stopped
	 * @return when done
	 */
	private CompletableFuture<Void> keepDeletes(KubernetesClient client, @Nullable String selector,
			@Nullable String from, @Nullable String until, @Nullable GatedListeners<T> gate) {
		if (gate == null) {
			return CompletableFuture.completedFuture(null);
		}
		return catchUp(client, selector, from, until, (resource) -> true, gate::keepDeletes);
	}

}
