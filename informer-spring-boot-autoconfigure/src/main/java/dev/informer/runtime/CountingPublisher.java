package dev.informer.runtime;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import io.fabric8.kubernetes.api.model.HasMetadata;

import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourcesReplayedEvent;
import dev.informer.runtime.replicas.GatedListeners;
import dev.informer.watch.EventType;

/**
 * The last stage of a watch's pipeline: publishes what passed the replica gate to the
 * application's listeners, and counts each delivered event, with its listener failures
 * and duration, into the watch's status and the informer's delivery observers.
 *
 * @param <T> the resource type
 */
final class CountingPublisher<T extends HasMetadata> implements GatedListeners.Listeners<T> {

	private final WatchContext<T> context;

	private final WatchSettings settings;

	CountingPublisher(WatchContext<T> context, WatchSettings settings) {
		this.context = context;
		this.settings = settings;
	}

	@Override
	public String informerName() {
		return this.context.name();
	}

	@Override
	public Class<T> resourceType() {
		return this.context.definition().getResourceClass();
	}

	@Override
	public void deliver(EventType type, ResourceEvent<T> event, BooleanSupplier proceed) {
		long started = System.nanoTime();
		int failures = this.settings.publisher().publish(event, proceed);
		Duration duration = Duration.ofNanos(System.nanoTime() - started);
		this.context.status().observed().delivered(type, failures);
		this.settings.deliveryObserver()
			.get()
			.delivered(this.context.name(), this.context.namespace(), type, duration, failures);
	}

	@Override
	public void replayed(int count, String reason, BooleanSupplier proceed) {
		this.settings.publisher()
			.publish(new ResourcesReplayedEvent(this.context.name(), this.context.namespace(), count, reason), proceed);
	}

}
