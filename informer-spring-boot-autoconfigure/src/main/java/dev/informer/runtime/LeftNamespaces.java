package dev.informer.runtime;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

import dev.informer.runtime.replicas.GatedListeners;

/**
 * The deletes that the replica gate of a namespace kept back when the namespace left an
 * informer's {@code namespace-selector}: the deletes flagged as having left the
 * selection, queued while this replica's Lease had lapsed or while another replica was to
 * publish them, and the tombstones the gate kept before. They outlive the namespace's
 * watch: its pipeline (listener queue and gate) is kept, without a source, until a replay
 * delivered them (this replica publishes again, or takes their objects over) or the
 * tombstones' retention dropped them. A namespace that joins again takes them into its
 * new watch, once what its old queue holds is delivered, so that they come before its
 * replayed adds and never after them.
 *
 * @param <T> the resource type
 */
final class LeftNamespaces<T extends HasMetadata> {

	private final Map<String, Pipeline<T>> kept = new ConcurrentHashMap<>();

	/**
	 * Keep the pipeline of a namespace that left, while its gate keeps deletes.
	 * @param namespace the namespace
	 * @param pipeline its pipeline, no longer fed by a source
	 */
	void keep(String namespace, Pipeline<T> pipeline) {
		pipeline.listeners().leftSelection();
		Pipeline<T> previous = this.kept.put(namespace, pipeline);
		if (previous != null && previous != pipeline) {
			previous.listeners().handDeletesTo(pipeline.listeners());
			previous.close();
		}
	}

	/**
	 * Take the pipeline a namespace that joins again left behind, once what its queue
	 * holds now is delivered: its new watch takes over the deletes it still keeps.
	 * @param namespace the namespace
	 * @return a future of the pipeline, {@code null} when none was kept
	 */
	CompletableFuture<@Nullable Pipeline<T>> rejoin(String namespace) {
		Pipeline<T> left = this.kept.remove(namespace);
		if (left == null || left.queue().isClosed()) {
			return CompletableFuture.completedFuture(null);
		}
		CompletableFuture<@Nullable Pipeline<T>> drained = new CompletableFuture<>();
		left.queue().marker(() -> drained.complete(left));
		return drained;
	}

	/**
	 * Replay the kept deletes of the objects {@code gained} selects, and those this
	 * replica owed, as {@link GatedListeners#replay} does.
	 * @param gained the objects this replica took over
	 * @param reason why, as the replayed event says
	 */
	void replay(Predicate<? super T> gained, String reason) {
		this.kept.values().forEach((pipeline) -> pipeline.listeners().replay(gained, reason));
	}

	/**
	 * Replay the kept deletes this replica owed, as {@link GatedListeners#replayIfOwed}
	 * does.
	 * @param reason why, as the replayed event says
	 */
	void replayIfOwed(String reason) {
		this.kept.values().forEach((pipeline) -> pipeline.listeners().replayIfOwed(reason));
	}

	/**
	 * Deliver the kept deletes this replica owes of what another replica publishes now,
	 * as {@link GatedListeners#deliverOwedDeletes} does.
	 */
	void deliverOwedDeletes() {
		this.kept.values().forEach((pipeline) -> pipeline.listeners().deliverOwedDeletes());
	}

	/**
	 * Drop the pipelines whose deletes were delivered or expired; each is checked again
	 * on its queue, after a replay that took them and may still be delivering them.
	 */
	void sample() {
		this.kept.forEach((namespace, pipeline) -> {
			if (!pipeline.listeners().keepsDeletes()) {
				pipeline.queue().marker(() -> {
					if (!pipeline.listeners().keepsDeletes() && this.kept.remove(namespace, pipeline)) {
						pipeline.close();
					}
				});
			}
		});
	}

	/**
	 * Forget every kept delete: the informer stopped.
	 */
	void close() {
		this.kept.values().forEach(Pipeline::close);
		this.kept.clear();
	}

}
