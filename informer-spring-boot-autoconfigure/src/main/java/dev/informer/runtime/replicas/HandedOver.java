package dev.informer.runtime.replicas;

import java.time.Instant;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.jspecify.annotations.Nullable;

/**
 * The objects a replica published and that another replica publishes now (a sharded
 * member's range moved away, a leader was replaced), each in the state it had then: this
 * replica delivers their deletes too, as replays, while they are kept. The replica that
 * took them over may never see them: its watch may have relisted across a gap
 * ({@code 410 Gone}) in which one was created and deleted, and then nobody else delivers
 * the delete of an object this replica's listeners hold. Kept as long and as many as
 * {@link Tombstones} (the oldest go first).
 *
 * @param <T> the resource type
 */
final class HandedOver<T extends HasMetadata> {

	private final DeliveryRecords records;

	/** By uid (or key without one), oldest first. */
	private final Map<String, Entry<T>> objects = new LinkedHashMap<>();

	HandedOver(DeliveryRecords records) {
		this.records = records;
	}

	/**
	 * Remember objects whose range moved to another member.
	 * @param moved the objects, each in its cached state
	 */
	synchronized void handedOver(Collection<T> moved) {
		Instant now = this.records.clock().instant();
		for (T resource : moved) {
			String id = id(resource);
			this.objects.remove(id);
			this.objects.put(id, new Entry<>(resource, now));
		}
		expire(now);
	}

	/**
	 * Return the state an object had when its range moved, and forget it: its delete is
	 * delivered now.
	 * @param deleted the deleted object
	 * @return its state when handed over, {@code null} if it is not kept
	 */
	synchronized @Nullable T take(T deleted) {
		expire(this.records.clock().instant());
		Entry<T> entry = this.objects.remove(id(deleted));
		return (entry != null) ? entry.resource() : null;
	}

	synchronized void clear() {
		this.objects.clear();
	}

	private void expire(Instant now) {
		Instant oldest = now.minus(this.records.tombstoneRetention());
		int excess = this.objects.size() - this.records.maxTombstones();
		Iterator<Entry<T>> oldestFirst = this.objects.values().iterator();
		while (oldestFirst.hasNext()) {
			Entry<T> entry = oldestFirst.next();
			if (excess <= 0 && !entry.at().isBefore(oldest)) {
				break;
			}
			oldestFirst.remove();
			excess--;
		}
	}

	private static String id(HasMetadata resource) {
		String uid = resource.getMetadata().getUid();
		return (uid != null) ? uid : Cache.metaNamespaceKeyFunc(resource);
	}

	private record Entry<T>(T resource, Instant at) {
	}

}
