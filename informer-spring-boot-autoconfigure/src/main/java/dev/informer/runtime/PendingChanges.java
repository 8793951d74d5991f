package dev.informer.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
class PendingChanges<T extends HasMetadata> {

	private final Map<String, Pending<T>> pending = new ConcurrentHashMap<>();

	private final AtomicLong backlog = new AtomicLong();

	/**
	 * Record a queued notification.
	 * @param key the cache key
	 * @param before the state before this change, {@code null} for an added resource
	 */
	void queued(String key, @Nullable T before) {
		this.pending.compute(key, (ignored, current) -> Pending.append(current, before));
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
			return current.withoutOldest();
		});
		if (found.get()) {
			this.backlog.decrementAndGet();
		}
	}

	/**
	 * Return whether the key has changes not handed on yet.
	 * @param key the cache key
	 * @return whether a change is pending
	 */
	boolean isPending(String key) {
		return this.pending.containsKey(key);
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
		this.pending.forEach((key, pending) -> pending.befores()
			.get(0)
			.ifPresentOrElse((state) -> result.put(key, state), () -> result.remove(key)));
		return result;
	}

	/**
	 * The changes of one key not yet handed on, oldest first, each as the state before it
	 * (empty before an add). Once the first is handed on, the state before the second is
	 * what listeners will have seen. Immutable: a relist reads it while fabric8's watch
	 * thread records the next change.
	 *
	 * @param <T> the resource type
	 * @param befores the states, never empty
	 */
	private record Pending<T>(List<Optional<T>> befores) {

		static <T> Pending<T> append(@Nullable Pending<T> current, @Nullable T before) {
			List<Optional<T>> befores = new ArrayList<>((current != null) ? current.befores() : List.of());
			befores.add(Optional.ofNullable(before));
			return new Pending<>(List.copyOf(befores));
		}

		@Nullable Pending<T> withoutOldest() {
			return (this.befores.size() > 1) ? new Pending<>(this.befores.subList(1, this.befores.size())) : null;
		}

	}

}
