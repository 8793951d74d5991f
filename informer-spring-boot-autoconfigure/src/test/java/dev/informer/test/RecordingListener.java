package dev.informer.test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.EventListener;

import dev.informer.event.DeliveryRoleChangedEvent;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourcesReplayedEvent;
import dev.informer.event.ResourceEvent;

/**
 * Records every informer event it receives, in order.
 */
public class RecordingListener {

	private final List<ApplicationEvent> events = new CopyOnWriteArrayList<>();

	@EventListener
	void on(ResourceEvent<?> event) {
		this.events.add(event);
	}

	@EventListener
	void on(InformerSyncedEvent event) {
		this.events.add(event);
	}

	@EventListener
	void on(ResourcesReplayedEvent event) {
		this.events.add(event);
	}

	@EventListener
	void on(DeliveryRoleChangedEvent event) {
		this.events.add(event);
	}

	/**
	 * Record an event received some other way than through the context.
	 * @param event the event
	 */
	public void record(ApplicationEvent event) {
		this.events.add(event);
	}

	public List<ApplicationEvent> events() {
		return List.copyOf(this.events);
	}

	public List<ResourceEvent<?>> resourceEvents() {
		List<ResourceEvent<?>> result = new java.util.ArrayList<>();
		for (ApplicationEvent event : this.events) {
			if (event instanceof ResourceEvent<?> resourceEvent) {
				result.add(resourceEvent);
			}
		}
		return result;
	}

	public <E extends ApplicationEvent> List<E> events(Class<E> type) {
		return this.events.stream().filter(type::isInstance).map(type::cast).toList();
	}

	public <E extends ResourceEvent<?>> List<E> events(Class<E> type, Predicate<E> filter) {
		return events(type).stream().filter(filter).toList();
	}

	public void clear() {
		this.events.clear();
	}

}
