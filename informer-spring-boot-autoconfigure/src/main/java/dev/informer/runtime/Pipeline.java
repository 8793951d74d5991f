package dev.informer.runtime;

import java.util.function.BiConsumer;

import io.fabric8.kubernetes.api.model.HasMetadata;

import dev.informer.runtime.listeners.ListenerQueue;
import dev.informer.runtime.replicas.GatedListeners;

/**
 * The stages one start of a watch hands its changes through, after its fabric8 informer
 * (the source, which a relist replaces): the change log, the listener queue, the replica
 * gate, and the {@code on-change} filter before the listeners. Built when the watch
 * starts, dropped when it stops.
 *
 * @param <T> the resource type
 * @param changes what was handed on: the on-change filter's states, the queued resyncs
 * @param queue where the listeners run, in order
 * @param listeners the replica gate, then the on-change filter, before the listeners
 */
record Pipeline<T extends HasMetadata>(ChangeLog<T> changes, ListenerQueue queue, GatedListeners<T> listeners) {

	/**
	 * Wire the pipeline of one start of a watch.
	 * @param <T> the resource type
	 * @param context the watch
	 * @param start what the watch starts with
	 * @param source what the watch holds: the cache a replay reads, what fabric8 holds
	 * before the queue
	 * @param fail stops the watch with a reason and a message (a backlog that overflows)
	 * @return the pipeline
	 */
	static <T extends HasMetadata> Pipeline<T> create(WatchContext<T> context, WatchStart start, WatchSource<T> source,
			BiConsumer<String, String> fail) {
		WatchSettings settings = start.settings();
		ListenerQueue queue = new ListenerQueue(start.executor(), settings.backlog(),
				new BacklogOverflow(context, source::upstreamBacklog, settings, fail));
		ChangeLog<T> changes = new ChangeLog<>(context.definition().getDeclaration());
		GatedListeners<T> listeners = new GatedListeners<>(queue, settings.gate(), source::handedOn,
				new OnChangeListeners<>(changes.filter(), context, new CountingPublisher<>(context, settings)),
				settings.records().get());
		return new Pipeline<>(changes, queue, listeners);
	}

	/**
	 * Stop: drop what waits for listeners, deliver nothing more.
	 */
	void close() {
		this.queue.close();
		this.listeners.close();
	}

}
