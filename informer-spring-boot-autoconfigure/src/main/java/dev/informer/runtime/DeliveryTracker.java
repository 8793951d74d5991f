package dev.informer.runtime;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

/**
 * The changes fabric8 has applied to one informer's cache but not yet handed on: fabric8
 * updates the cache on its watch thread and queues a notification, which its serial
 * executor hands to the informer's handler later (and drops, if the informer stops
 * first). Gives that backlog, and for each key with changes not handed on the state
 * before the first of them, so that a relist can be seeded with what will have been
 * delivered instead of what the cache holds.
 *
 * @param <T> the resource type
 */
class DeliveryTracker<T extends HasMetadata> {

	private final Map<String, Pending<T>> pending = new ConcurrentHashMap<>();

	private final AtomicLong backlog = new AtomicLong();

	/**
	 * Record a queued notification.
	 * @param key the cache key
	 * @param before the state before this change, {@code null} for an added resource
	 */
	void queued(String key, @Nullable T before) {
		this.pending.compute(key, (ignored, current) -> {
			Pending<T> pending = (current != null) ? current : new Pending<>();
			pending.befores.addLast(Optional.ofNullable(before));
			return pending;
		});
		this.backlog.incrementAndGet();
	}

	/**
	 * Record a notification handed on: the oldest queued change of the key.
	 * @param key the cache key
	 */
	void delivered(String key) {
		AtomicBoolean found = new AtomicBoolean();
		this.pending.computeIfPresent(key, (ignored, current) -> {
			found.set(true);
			current.befores.pollFirst();
			return current.befores.isEmpty() ? null : current;
		});
		if (found.get()) {
			this.backlog.decrementAndGet();
		}
	}

	/**
	 * Return the number of queued, undelivered notifications.
	 * @return the backlog
	 */
	long backlog() {
		return this.backlog.get();
	}

	/**
	 * Return what has been handed on: the cached state, with each change not yet handed
	 * on undone.
	 * @param cached the cache's content by key
	 * @return the state listeners last saw, by key
	 */
	Map<String, T> seenByListeners(Map<String, T> cached) {
		Map<String, T> result = new LinkedHashMap<>(cached);
		this.pending.forEach((key, pending) -> {
			Optional<T> before = pending.befores.peekFirst();
			if (before == null) {
				return;
			}
			before.ifPresentOrElse((state) -> result.put(key, state), () -> result.remove(key));
		});
		return result;
	}

	/**
	 * The changes of one key not yet handed on, oldest first, each as the state before it
	 * (empty before an add). Once the first is handed on, the state before the second is
	 * what listeners will have seen.
	 */
	private static final class Pending<T> {

		private final Deque<Optional<T>> befores = new ArrayDeque<>();

	}

}
