package dev.informer.runtime;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.HasMetadata;

import dev.informer.InformerDeclaration;
import dev.informer.runtime.changes.ChangeFilter;

/**
 * What one start of a watch has handed on, across the relists that replace its fabric8
 * informer: the states {@code on-change} compares updates with (the last delivered of
 * each object, recorded by {@link OnChangeListeners} where listeners get them), and the
 * objects with a resync waiting in the listener queue, so that a resync cycle that finds
 * one queued adds no second.
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
