package dev.informer.runtime.replicas;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.jspecify.annotations.Nullable;

/**
 * The deletes of one watch that its gate dropped: another replica was to publish them
 * ({@link DeliveryGate.Verdict#NOT_OURS}), or this replica's Lease had lapsed
 * ({@link DeliveryGate.Verdict#LAPSED}). The replica that takes over the objects delivers
 * them, at least once, before its replayed adds, so that no listener of the group keeps
 * an object the server deleted while its publisher was gone. Kept in the order they were
 * dropped, for at most the retention and at most the count of {@link DeliveryRecords};
 * what a bound drops is counted.
 *
 * @param <T> the resource type
 */
final class Tombstones<T extends HasMetadata> {

	private final DeliveryRecords records;

	/** By uid (or key without one): each deleted object once. */
	private final Map<String, Tombstone<T>> dropped = new LinkedHashMap<>();

	/** How many of those this replica owes: asked on every event the gate delivers. */
	private int owed;

	Tombstones(DeliveryRecords records) {
		this.records = records;
	}

	/**
	 * Keep a delete the gate dropped.
	 * @param deleted the deleted object's last state
	 * @param observedResourceVersion the resourceVersion at which the deletion was
	 * observed
	 * @param owed whether this replica owed it (its Lease lapsed), rather than another
	 */
	void dropped(T deleted, @Nullable String observedResourceVersion, boolean owed) {
		dropped(deleted, observedResourceVersion, owed, false);
	}

	/**
	 * Keep a delete the gate dropped.
	 * @param deleted the deleted object's last state
	 * @param observedResourceVersion the resourceVersion at which the deletion was
	 * observed
	 * @param owed whether this replica owed it (its Lease lapsed), rather than another
	 * @param leftSelection whether the object was not deleted but its namespace left the
	 * selection
	 */
	synchronized void dropped(T deleted, @Nullable String observedResourceVersion, boolean owed,
			boolean leftSelection) {
		expire();
		keep(new Tombstone<>(deleted, observedResourceVersion, owed, leftSelection, this.records.clock().instant()));
	}

	private void keep(Tombstone<T> tombstone) {
		String uid = tombstone.resource().getMetadata().getUid();
		String id = (uid != null) ? uid : Cache.metaNamespaceKeyFunc(tombstone.resource());
		Tombstone<T> previous = this.dropped.put(id, tombstone);
		if (previous == null) {
			this.records.tombstonesChanged(1);
		}
		else if (previous.owed()) {
			this.owed--;
		}
		if (tombstone.owed()) {
			this.owed++;
		}
		int excess = this.dropped.size() - this.records.maxTombstones();
		if (excess > 0) {
			drop(excess, this.dropped.values().iterator());
		}
	}

	/**
	 * Return whether no tombstone is kept (once the retention dropped the old ones).
	 * @return whether none is kept
	 */
	synchronized boolean isEmpty() {
		expire();
		return this.dropped.isEmpty();
	}

	/**
	 * Move every tombstone, oldest first and as it was kept, to {@code next}: the watch
	 * that delivers them now.
	 * @param next where they are kept from now on
	 */
	void moveTo(Tombstones<T> next) {
		List<Tombstone<T>> moved;
		synchronized (this) {
			moved = new ArrayList<>(this.dropped.values());
			this.records.tombstonesChanged(-moved.size());
			this.dropped.clear();
			this.owed = 0;
		}
		synchronized (next) {
			next.expire();
			moved.forEach(next::keep);
		}
	}

	/**
	 * Return whether a tombstone this replica owes (kept through a lapse) waits; one
	 * older than the retention no longer does, as no replay would deliver it.
	 * @return whether one is owed
	 */
	synchronized boolean isOwed() {
		expire();
		return this.owed > 0;
	}

	/**
	 * Take the tombstones {@code select} picks, oldest first, and forget them: the caller
	 * delivers them.
	 * @param select which deleted objects this replica takes over
	 * @return the tombstones
	 */
	synchronized List<Tombstone<T>> take(Predicate<? super T> select) {
		expire();
		List<Tombstone<T>> taken = new ArrayList<>();
		for (Iterator<Tombstone<T>> it = this.dropped.values().iterator(); it.hasNext();) {
			Tombstone<T> tombstone = it.next();
			if (tombstone.owed() || select.test(tombstone.resource())) {
				taken.add(tombstone);
				it.remove();
				if (tombstone.owed()) {
					this.owed--;
				}
			}
		}
		this.records.tombstonesChanged(-taken.size());
		return taken;
	}

	/**
	 * Forget every tombstone: the watch stopped.
	 */
	synchronized void clear() {
		this.records.tombstonesChanged(-this.dropped.size());
		this.dropped.clear();
		this.owed = 0;
	}

	private void expire() {
		Instant oldest = this.records.clock().instant().minus(this.records.tombstoneRetention());
		int expired = 0;
		for (Tombstone<T> tombstone : this.dropped.values()) {
			if (!tombstone.at().isBefore(oldest)) {
				break;
			}
			expired++;
		}
		if (expired > 0) {
			drop(expired, this.dropped.values().iterator());
		}
	}

	private void drop(int count, Iterator<Tombstone<T>> oldestFirst) {
		for (int i = 0; i < count && oldestFirst.hasNext(); i++) {
			if (oldestFirst.next().owed()) {
				this.owed--;
			}
			oldestFirst.remove();
		}
		this.records.tombstonesChanged(-count);
		this.records.tombstonesDropped(count);
	}

	/**
	 * One delete the gate dropped.
	 *
	 * @param <T> the resource type
	 * @param resource the deleted object's last state
	 * @param observedResourceVersion the resourceVersion at which the deletion was
	 * observed
	 * @param owed whether this replica owed it
	 * @param leftSelection whether the object was not deleted but its namespace left the
	 * selection
	 * @param at when it was dropped
	 */
	record Tombstone<T>(T resource, @Nullable String observedResourceVersion, boolean owed, boolean leftSelection,
			Instant at) {

	}

}
