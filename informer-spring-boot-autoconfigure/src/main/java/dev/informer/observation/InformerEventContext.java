package dev.informer.observation;

import io.micrometer.observation.Observation;

import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;

/**
 * The {@link Observation.Context} of the delivery of one resource event to the listeners.
 *
 * @since 0.1.0
 */
public class InformerEventContext extends Observation.Context {

	private final ResourceEvent<?> event;

	private final boolean namespaceBounded;

	/**
	 * Create a context.
	 * @param event the event being delivered
	 * @param namespaceBounded whether the informer watches a fixed list of namespaces, so
	 * that the namespace may be a low-cardinality key
	 */
	public InformerEventContext(ResourceEvent<?> event, boolean namespaceBounded) {
		this.event = event;
		this.namespaceBounded = namespaceBounded;
	}

	/**
	 * Return the event being delivered.
	 * @return the event
	 */
	public ResourceEvent<?> getEvent() {
		return this.event;
	}

	/**
	 * Return whether the informer watches a fixed list of namespaces
	 * ({@code namespaces}), so that their number is bounded.
	 * @return whether the namespace is a low-cardinality value
	 */
	public boolean isNamespaceBounded() {
		return this.namespaceBounded;
	}

	/**
	 * Return the type of the event as metrics tag it: {@code added}, {@code updated},
	 * {@code deleted} or {@code resync}.
	 * @return the type
	 */
	public String getType() {
		if (this.event instanceof ResourceUpdatedEvent<?> updated) {
			return updated.isResync() ? "resync" : "updated";
		}
		return (this.event instanceof ResourceDeletedEvent<?>) ? "deleted" : "added";
	}

}
