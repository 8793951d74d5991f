package dev.informer.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.runtime.kinds.InformerOperations;
import dev.informer.runtime.replicas.GatedListeners;
import dev.informer.watch.KubernetesErrors;

/**
 * How one watch of a sharded replica, with the API server's shard selectors, catches up
 * on the deletes of a new shard range: it remembers the resourceVersions it reached
 * ({@link VersionHistory}), and after relisting for the new range watches that range from
 * the version it had reached some time before, keeping what was deleted since as deletes
 * its next replay delivers. The member that published those objects may have been cut off
 * meanwhile, or this replica may have published the range before and been cut off itself
 * while another member published it; the list of the new range holds neither.
 *
 * @param <T> the resource type
 */
final class RangeCatchUp<T extends HasMetadata> {

	private static final Log logger = LogFactory.getLog(RangeCatchUp.class);

	/** How long the watch that catches up waits at most. */
	private static final Duration BOUND = Duration.ofSeconds(5);

	private final WatchContext<T> context;

	private final VersionHistory versions = new VersionHistory();

	RangeCatchUp(WatchContext<T> context) {
		this.context = context;
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
	 * @param since from when deletes may have been delivered by nobody
	 * @return the resourceVersion, or {@code null} when none is known
	 */
	@Nullable String from(Instant since) {
		return this.versions.at(since);
	}

	/**
	 * Keep, as deletes the next replay of {@code gate} delivers, the objects of the range
	 * {@code selector} deleted after {@code from}, found by a watch of the range from
	 * {@code from} until {@code until} ({@link InformerOperations#deletedSince}). Every
	 * one is kept, those this replica delivered itself too: a delete delivered twice is
	 * harmless (a listener removes what it does not hold: nothing); one older than the
	 * API server's watch cache keeps is lost, and logged. Never completes exceptionally.
	 * @param client the application's client
	 * @param selector the new range
	 * @param from where to start, see {@link #from}
	 * @param until the resourceVersion the relist reached
	 * @param gate the watch's gate
	 * @return when done
	 */
	CompletableFuture<Void> catchUp(KubernetesClient client, @Nullable String selector, @Nullable String from,
			@Nullable String until, @Nullable GatedListeners<T> gate) {
		if (from == null || selector == null || until == null || gate == null) {
			return CompletableFuture.completedFuture(null);
		}
		CompletableFuture<List<T>> deleted;
		try {
			deleted = InformerOperations.deletedSince(client, this.context.definition(), this.context.namespace(),
					selector, from, until, BOUND);
		}
		catch (RuntimeException ex) {
			deleted = CompletableFuture.failedFuture(ex);
		}
		return deleted.handle((objects, ex) -> {
			if (ex != null) {
				logger.warn("Informer '" + this.context.name() + "'" + this.context.where()
						+ ": could not catch up on the deletes of its new shard range since resourceVersion " + from
						+ " (" + KubernetesErrors.describe(ex) + "); a delete made while no replica watched them "
						+ "is not delivered");
				return null;
			}
			if (!objects.isEmpty()) {
				gate.keepDeletes(objects);
				logger.info("Informer '" + this.context.name() + "'" + this.context.where() + ": " + objects.size()
						+ " objects of its new shard range were deleted since resourceVersion " + from
						+ "; they are replayed as deletes");
			}
			return null;
		});
	}

}
