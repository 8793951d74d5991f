package dev.informer.runtime.replicas;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.jspecify.annotations.Nullable;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;

/**
 * The changes of one watch that this replica owed its listeners and could not deliver:
 * its Lease had lapsed ({@link DeliveryGate.Verdict#LAPSED}). For each object, the state
 * listeners last saw before the first such change (none when they never saw it), so that
 * a relist is seeded with what listeners really saw and a replay can say which objects
 * were deleted meanwhile. One entry per object, cleared when replayed.
 *
 * @param <T> the resource type
 * @since 0.1.0
 */
public final class MissedChanges<T extends HasMetadata> {

	private final Map<String, Optional<T>> lastSeen = new ConcurrentHashMap<>();

	/** A replayed add was missed: the replay itself is owed. */
	private volatile boolean replayMissed;

	/**
	 * Record an event the gate kept from listeners while this replica owed it.
	 * @param event the event
	 */
	public void missed(ResourceEvent<T> event) {
		if (event instanceof ResourceAddedEvent<T> added && added.isReplay()) {
			this.replayMissed = true;
			return;
		}
		if (event instanceof ResourceUpdatedEvent<T> updated && updated.isResync()) {
			// a resync changes nothing listeners have not seen
			return;
		}
		@Nullable T before = (event instanceof ResourceUpdatedEvent<T> updated) ? updated.getOldResource()
				: (event instanceof ResourceDeletedEvent<T>) ? event.getResource() : null;
		this.lastSeen.putIfAbsent(Cache.metaNamespaceKeyFunc(event.getResource()), Optional.ofNullable(before));
	}

	/**
	 * Return whether a change was missed since the last {@link #take()}.
	 * @return whether a replay is owed
	 */
	public boolean isOwed() {
		return this.replayMissed || !this.lastSeen.isEmpty();
	}

	/**
	 * Return the missed objects with the state listeners last saw of each, and forget
	 * them: the caller replays them.
	 * @return the last state seen by key, empty when listeners never saw the object
	 */
	public Map<String, Optional<T>> take() {
		this.replayMissed = false;
		Map<String, Optional<T>> taken = new LinkedHashMap<>();
		for (String key : this.lastSeen.keySet()) {
			Optional<T> state = this.lastSeen.remove(key);
			if (state != null) {
				taken.put(key, state);
			}
		}
		return taken;
	}

	/**
	 * Undo the missed changes in what a relist is seeded with, and forget them: the
	 * relist then delivers them as the differences they are.
	 * @param seen the state listeners saw by key, as the delivery tracker has it
	 * @return the state listeners really saw by key
	 */
	public Map<String, T> undo(Map<String, T> seen) {
		Map<String, T> result = new LinkedHashMap<>(seen);
		take().forEach(
				(key, state) -> state.ifPresentOrElse((before) -> result.put(key, before), () -> result.remove(key)));
		return result;
	}

	/**
	 * Forget every missed change: another replica replays them, or the watch stopped.
	 */
	public void clear() {
		take();
	}

}
