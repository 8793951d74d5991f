package dev.informer.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;

import dev.informer.runtime.listeners.ListenerQueue;
import dev.informer.runtime.replicas.GatedListeners;

/**
 * The stages one start of a watch hands its changes through, after its fabric8 informer
 * (the source, which a relist replaces): the change log, the listener queue, and the
 * replica gate before the listeners. Built when the watch starts, dropped when it stops.
 *
 * @param <T> the resource type
 * @param changes what was handed on: the on-change filter's states, the queued resyncs
 * @param queue where the listeners run, in order
 * @param listeners the replica gate before the listeners
 */
record Pipeline<T extends HasMetadata>(ChangeLog<T> changes, ListenerQueue queue, GatedListeners<T> listeners) {

	/**
	 * Stop: drop what waits for listeners, deliver nothing more.
	 */
	void close() {
		this.queue.close();
		this.listeners.close();
	}

}
