package dev.informer.runtime;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
 * <p>
 * Paid for every change, on fabric8's threads: a key with one change pending (nearly
 * always: the handler keeps up) costs one small immutable entry, replaced whole as
 * changes come and go, so that a relist reading it never sees half an update.
 *
 * @param <T> the resource type
 */
class PendingChanges<T extends HasMetadata> {

	/** Stands for "no state before": the change was an add. */
	private static final Object ABSENT = new Object();

	private final Map<String, Object> pending = new ConcurrentHashMap<>();

	private final AtomicLong backlog = new AtomicLong();

	/**
	 * Record a queued notification.
	 * @param key the cache key
	 * @param before the state before this change, {@code null} for an added resource
	 */
	void queued(String key, @Nullable T before) {
		Object state = (before != null) ? before : ABSENT;
		this.pending.merge(key, state, (current, added) -> Several.append(current, added));
		this.backlog.incrementAndGet();
	}

	/**
	 * Record a notification handed on: the oldest queued change of the key.
	 * @param key the cache key
	 */
	void delivered(String key) {
		this.pending.computeIfPresent(key, (ignored, current) -> {
			this.backlog.decrementAndGet();
			return (current instanceof Several several) ? several.withoutOldest() : null;
		});
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
	@SuppressWarnings("unchecked")
	Map<String, T> seenByListeners(Map<String, T> cached) {
		Map<String, T> result = new LinkedHashMap<>(cached);
		this.pending.forEach((key, pending) -> {
			Object oldest = (pending instanceof Several several) ? several.oldest() : pending;
			if (oldest == ABSENT) {
				result.remove(key);
			}
			else {
				result.put(key, (T) oldest);
			}
		});
		return result;
	}

	/**
	 * Several changes of one key not yet handed on, oldest first, each as the state
	 * before it ({@link #ABSENT} before an add). Once the first is handed on, the state
	 * before the second is what listeners will have seen. Immutable: a relist reads it
	 * while fabric8's watch thread records the next change.
	 *
	 * @param befores the states, at least two
	 */
	private record Several(Object[] befores) {

		static Object append(Object current, Object before) {
			if (current instanceof Several several) {
				Object[] befores = Arrays.copyOf(several.befores, several.befores.length + 1);
				befores[several.befores.length] = before;
				return new Several(befores);
			}
			return new Several(new Object[] { current, before });
		}

		Object oldest() {
			return this.befores[0];
		}

		Object withoutOldest() {
			return (this.befores.length == 2) ? this.befores[1]
					: new Several(Arrays.copyOfRange(this.befores, 1, this.befores.length));
		}

	}

}
