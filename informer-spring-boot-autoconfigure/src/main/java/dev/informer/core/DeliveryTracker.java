package dev.informer.core;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

/**
 * The changes fabric8 has applied to one informer's cache but not yet delivered to
 * listeners: fabric8 updates the cache on its watch thread and queues a notification, which
 * its serial executor delivers later. Gives the delivery backlog, and for each key with
 * undelivered changes the state listeners last saw, so that a relist can be seeded with what
 * listeners know instead of what the cache holds.
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
			if (current == null) {
				return new Pending<>(before);
			}
			current.count++;
			return current;
		});
		this.backlog.incrementAndGet();
	}

	/**
	 * Record a delivered notification.
	 * @param key the cache key
	 */
	void delivered(String key) {
		AtomicBoolean found = new AtomicBoolean();
		this.pending.computeIfPresent(key, (ignored, current) -> {
			found.set(true);
			current.count--;
			return (current.count > 0) ? current : null;
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
	 * Return what listeners have seen: the cached state, with each undelivered change undone.
	 * @param cached the cache's content by key
	 * @return the state listeners last saw, by key
	 */
	Map<String, T> seenByListeners(Map<String, T> cached) {
		Map<String, T> result = new LinkedHashMap<>(cached);
		this.pending.forEach((key, pending) -> {
			if (pending.before != null) {
				result.put(key, pending.before);
			}
			else {
				result.remove(key);
			}
		});
		return result;
	}

	/**
	 * The undelivered changes of one key.
	 */
	private static final class Pending<T> {

		private final @Nullable T before;

		private int count = 1;

		Pending(@Nullable T before) {
			this.before = before;
		}

	}

}
