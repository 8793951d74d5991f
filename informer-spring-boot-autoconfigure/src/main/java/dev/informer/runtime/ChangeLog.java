package dev.informer.runtime;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

import dev.informer.InformerDeclaration;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.changes.ChangeFilter;
import dev.informer.watch.EventType;

/**
 * What one start of a watch has handed to its listener queue, across the relists that
 * replace its fabric8 informer: the states {@code on-change} compares updates with (the
 * last delivered of each object), and the objects with a resync waiting, so that a resync
 * cycle that finds one queued adds no second.
 *
 * @param <T> the resource type
 */
final class ChangeLog<T extends HasMetadata> {

	private final ChangeFilter<T> filter;

	private final Set<String> resyncsQueued = ConcurrentHashMap.newKeySet();

	ChangeLog(InformerDeclaration declaration) {
		this.filter = ChangeFilter.of(declaration);
	}

	/**
	 * Return the on-change filter, for the checks of a first list.
	 * @return the filter
	 */
	ChangeFilter<T> filter() {
		return this.filter;
	}

	/**
	 * Apply {@code on-change} to a change handed on: an update carries the state last
	 * delivered as its old one, or is held back when none of the declared parts changed
	 * since; adds and deletes pass (a relist's delete with final state unknown too).
	 * Resyncs do not come here: they replay the cache, change nothing and are delivered
	 * as before.
	 * @param key the object's key
	 * @param type the type of change
	 * @param event the event
	 * @return the event to queue, {@code null} when held back
	 */
	@Nullable ResourceEvent<T> changed(String key, EventType type, ResourceEvent<T> event) {
		if (!this.filter.isActive()) {
			return event;
		}
		if (event instanceof ResourceUpdatedEvent<T> update) {
			T old = this.filter.updated(key, update.getOldResource(), update.getResource());
			if (old == null) {
				return null;
			}
			return (old == update.getOldResource()) ? event : new ResourceUpdatedEvent<>(update.getInformerName(),
					update.getResourceType(), old, update.getResource());
		}
		if (type == EventType.DELETED) {
			this.filter.deleted(key);
		}
		else {
			this.filter.added(key, event.getResource());
		}
		return event;
	}

	/**
	 * Record a resync queued for an object, unless one is queued already.
	 * @param key the object's key
	 * @return whether to queue it
	 */
	boolean resyncQueued(String key) {
		return this.resyncsQueued.add(key);
	}

	/**
	 * Record that the queued resync of an object left the queue.
	 * @param key the object's key
	 */
	void resyncTaken(String key) {
		this.resyncsQueued.remove(key);
	}

}
