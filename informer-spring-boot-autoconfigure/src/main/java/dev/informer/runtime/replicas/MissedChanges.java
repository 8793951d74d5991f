package dev.informer.runtime.replicas;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.jspecify.annotations.Nullable;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;

/**
 * The adds and updates of one watch that this replica owed its listeners and could not
 * deliver: its Lease had lapsed ({@link DeliveryGate.Verdict#LAPSED}); the deletes go to
 * the {@link Tombstones}. For each object, the state listeners last saw before the first
 * such change (none when they never saw it), so that a relist is seeded with what
 * listeners really saw. One entry per object, cleared when replayed.
 * <p>
 * Bounded by {@link DeliveryRecords#maxMissedChanges()}: past it, the record forgets
 * every state and only remembers that it overflowed. The fallback keeps the contract: a
 * relist is then seeded with what listeners were handed, and the replay owed once the
 * gate publishes again replays every object, so that listeners end with each object's
 * current state.
 *
 * @param <T> the resource type
 * @since 0.1.0
 */
public final class MissedChanges<T extends HasMetadata> {

	private final DeliveryRecords records;

	private final Map<String, Optional<T>> lastSeen = new LinkedHashMap<>();

	/** A replayed add was missed, or the record overflowed: a whole replay is owed. */
	private boolean replayMissed;

	MissedChanges(DeliveryRecords records) {
		this.records = records;
	}

	/**
	 * Record an add or update the gate kept from listeners while this replica owed it.
	 * @param event the event
	 */
	public synchronized void missed(ResourceEvent<T> event) {
		if (event instanceof ResourceAddedEvent<T> added && added.isReplay()) {
			this.replayMissed = true;
			return;
		}
		if (event instanceof ResourceUpdatedEvent<T> updated && updated.isResync()) {
			// a resync changes nothing listeners have not seen
			return;
		}
		if (this.replayMissed && this.lastSeen.isEmpty()) {
			// overflowed (or a replay is owed): the whole replay covers this change
			return;
		}
		@Nullable T before = (event instanceof ResourceUpdatedEvent<T> updated) ? updated.getOldResource() : null;
		String key = Cache.metaNamespaceKeyFunc(event.getResource());
		if (this.lastSeen.containsKey(key)) {
			return;
		}
		if (this.lastSeen.size() >= this.records.maxMissedChanges()) {
			// the fallback: forget the states, replay every object
			this.records.missedChanged(-this.lastSeen.size());
			this.lastSeen.clear();
			this.replayMissed = true;
			this.records.missedOverflowed();
			return;
		}
		this.lastSeen.put(key, Optional.ofNullable(before));
		this.records.missedChanged(1);
	}

	/**
	 * Return whether listeners never saw the object of a key whose changes were missed:
	 * its delete need not be delivered.
	 * @param key the object's key
	 * @return whether its first missed change was an add
	 */
	synchronized boolean neverSeen(String key) {
		Optional<T> state = this.lastSeen.get(key);
		return state != null && state.isEmpty();
	}

	/**
	 * Return whether a change was missed since the last {@link #take()}.
	 * @return whether a replay is owed
	 */
	public synchronized boolean isOwed() {
		return this.replayMissed || !this.lastSeen.isEmpty();
	}

	/**
	 * Return the missed objects with the state listeners last saw of each, and forget
	 * them: the caller replays them.
	 * @return the last state seen by key, empty when listeners never saw the object
	 */
	public synchronized Map<String, Optional<T>> take() {
		this.replayMissed = false;
		Map<String, Optional<T>> taken = new LinkedHashMap<>(this.lastSeen);
		this.records.missedChanged(-this.lastSeen.size());
		this.lastSeen.clear();
		return taken;
	}

	/**
	 * Undo the missed changes in what a relist is seeded with, and forget them: the
	 * relist then delivers them as the differences they are. After an overflow the states
	 * are unknown: the seed stays what listeners were handed, and the whole replay stays
	 * owed.
	 * @param seen the state listeners were handed by key, as the delivery tracker has it
	 * @return the state listeners really saw by key
	 */
	public synchronized Map<String, T> undo(Map<String, T> seen) {
		Map<String, T> result = new LinkedHashMap<>(seen);
		boolean overflowed = this.replayMissed;
		take().forEach(
				(key, state) -> state.ifPresentOrElse((before) -> result.put(key, before), () -> result.remove(key)));
		this.replayMissed = overflowed;
		return result;
	}

	/**
	 * Forget every missed change: another replica replays them, or the watch stopped.
	 */
	public synchronized void clear() {
		take();
	}

}
