package dev.informer.runtime;

import java.util.Map;
import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.jspecify.annotations.Nullable;

import dev.informer.runtime.listeners.ListenerQueue;
import dev.informer.runtime.status.WatchContents;

/**
 * What one watch holds now: its current fabric8 informer (generation) with its cache, and
 * the pipeline of its current start. Its watch swaps them; the status, the cache and the
 * listener queue read them here, without going back to the watch.
 *
 * @param <T> the resource type
 */
final class WatchSource<T extends HasMetadata> implements WatchContents {

	private volatile @Nullable WatchGeneration<T> generation;

	private volatile @Nullable Pipeline<T> pipeline;

	@Nullable WatchGeneration<T> generation() {
		return this.generation;
	}

	void generation(@Nullable WatchGeneration<T> generation) {
		this.generation = generation;
	}

	@Nullable Pipeline<T> pipeline() {
		return this.pipeline;
	}

	void pipeline(Pipeline<T> pipeline) {
		this.pipeline = pipeline;
	}

	@Nullable CachingItemStore<T> store() {
		WatchGeneration<T> generation = this.generation;
		return (generation != null) ? generation.store() : null;
	}

	@Nullable SharedIndexInformer<T> informer() {
		WatchGeneration<T> generation = this.generation;
		return (generation != null) ? generation.informer() : null;
	}

	/**
	 * Run an action with the objects listeners will have been handed once the events
	 * queued now are delivered ({@link WatchGeneration#handedOn}), {@code null} before
	 * the first generation.
	 * @param action the action, which may queue for listeners in order with that state
	 */
	void handedOn(Consumer<@Nullable Map<String, T>> action) {
		WatchGeneration<T> generation = this.generation;
		if (generation != null) {
			generation.handedOn(action::accept);
		}
		else {
			action.accept(null);
		}
	}

	/**
	 * Return the changes fabric8 has cached but not yet handed on.
	 * @return the changes
	 */
	long upstreamBacklog() {
		WatchGeneration<T> generation = this.generation;
		return (generation != null) ? generation.pending().backlog() : 0;
	}

	/**
	 * Run an action in order with the events queued now: from the queue when it runs,
	 * else (stopped, or asked from the delivery thread itself) at once.
	 * @param action the action
	 */
	void inOrder(Runnable action) {
		Pipeline<T> pipeline = this.pipeline;
		ListenerQueue queue = (pipeline != null) ? pipeline.queue() : null;
		if (queue == null || queue.isClosed() || queue.isDelivering()) {
			action.run();
		}
		else {
			queue.marker(action);
		}
	}

	@Override
	public int cacheSize() {
		CachingItemStore<T> store = store();
		return (store != null) ? store.size() : 0;
	}

	/**
	 * Return the changes not yet handed to listeners: those fabric8 has cached but not
	 * yet handed on, and those waiting in the listener queue (resyncs included). A
	 * stopped watch delivers nothing more: fabric8's queue is dropped with it.
	 */
	@Override
	public long backlog() {
		Pipeline<T> pipeline = this.pipeline;
		if (pipeline == null || pipeline.queue().isClosed()) {
			return 0;
		}
		return upstreamBacklog() + pipeline.queue().backlog();
	}

	@Override
	public boolean backlogAtBound() {
		Pipeline<T> pipeline = this.pipeline;
		return pipeline != null && pipeline.queue().isAtBound();
	}

	@Override
	public @Nullable String lastResourceVersion() {
		SharedIndexInformer<T> informer = informer();
		return (informer != null) ? informer.lastSyncResourceVersion() : null;
	}

}
