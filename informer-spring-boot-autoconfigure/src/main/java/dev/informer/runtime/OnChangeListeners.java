package dev.informer.runtime;

import java.util.function.BooleanSupplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;

import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.changes.ChangeFilter;
import dev.informer.runtime.replicas.GatedListeners;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.watch.EventType;

/**
 * The {@code on-change} stage of a watch's pipeline, after the replica gate and before
 * the listeners: decides each update where it is delivered, so that the filter's memory
 * (the state last delivered of each object) advances only by what listeners were really
 * handed. A change the gate keeps back (a lapse, another replica's object) leaves it as
 * it was, and a replay's adds move it to the replayed state. Resyncs pass unfiltered, as
 * they change nothing.
 *
 * @param <T> the resource type
 */
final class OnChangeListeners<T extends HasMetadata> implements GatedListeners.Listeners<T> {

	private final ChangeFilter<T> filter;

	private final WatchContext<T> context;

	private final GatedListeners.Listeners<T> listeners;

	OnChangeListeners(ChangeFilter<T> filter, WatchContext<T> context, GatedListeners.Listeners<T> listeners) {
		this.filter = filter;
		this.context = context;
		this.listeners = listeners;
	}

	@Override
	public String informerName() {
		return this.listeners.informerName();
	}

	@Override
	public Class<T> resourceType() {
		return this.listeners.resourceType();
	}

	@Override
	public void deliver(EventType type, ResourceEvent<T> event, BooleanSupplier proceed) {
		if (!this.filter.isActive() || type == EventType.RESYNC) {
			this.listeners.deliver(type, event, proceed);
			return;
		}
		String key = Cache.metaNamespaceKeyFunc(event.getResource());
		ResourceEvent<T> delivered = event;
		if (event instanceof ResourceUpdatedEvent<T> update) {
			T last = this.filter.compare(key, update.getOldResource(), update.getResource());
			if (last == null) {
				status().observed().filtered();
				return;
			}
			if (last != update.getOldResource()) {
				delivered = new ResourceUpdatedEvent<>(update.getInformerName(), update.getResourceType(), last,
						update.getResource(), update.getCoalesced());
			}
		}
		FirstListener first = new FirstListener(proceed);
		this.listeners.deliver(type, delivered, first);
		if (!first.refused) {
			// handed to listeners (or to none: no listener takes it), not kept back by
			// a gate that closed before the first
			record(key, type, delivered);
		}
	}

	private void record(String key, EventType type, ResourceEvent<T> event) {
		if (type == EventType.DELETED) {
			this.filter.deleted(key);
		}
		else {
			this.filter.delivered(key, event.getResource());
		}
	}

	@Override
	public void notOurs(EventType type, ResourceEvent<T> event) {
		if (type == EventType.DELETED) {
			// another replica delivers it: the object is gone, and so is what was
			// remembered of it
			this.filter.deleted(Cache.metaNamespaceKeyFunc(event.getResource()));
		}
		this.listeners.notOurs(type, event);
	}

	@Override
	public void replayed(int count, String reason, BooleanSupplier proceed) {
		this.listeners.replayed(count, reason, proceed);
	}

	private WatchStatus status() {
		return this.context.status();
	}

	/**
	 * Asks the gate before each listener, and remembers whether it refused the first.
	 */
	private static final class FirstListener implements BooleanSupplier {

		private final BooleanSupplier proceed;

		private boolean asked;

		private boolean refused;

		FirstListener(BooleanSupplier proceed) {
			this.proceed = proceed;
		}

		@Override
		public boolean getAsBoolean() {
			boolean proceed = this.proceed.getAsBoolean();
			if (!this.asked) {
				this.asked = true;
				this.refused = !proceed;
			}
			return proceed;
		}

	}

}
