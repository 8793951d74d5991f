package dev.informer.event;

import java.util.Objects;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Published when a resource the informer already knows changes, and for every cached
 * resource on each resync (then {@link #isResync()} is {@code true} and old and new are
 * the same object).
 *
 * @param <T> the resource type
 * @since 0.1.0
 */
public class ResourceUpdatedEvent<T extends HasMetadata> extends ResourceEvent<T> {

	private final T oldResource;

	/**
	 * Create a new event.
	 * @param informerName the name of the informer
	 * @param resourceType the resource class of the informer
	 * @param oldResource the previous state
	 * @param resource the new state
	 */
	public ResourceUpdatedEvent(String informerName, Class<T> resourceType, T oldResource, T resource) {
		this(informerName, resourceType, oldResource, resource, 0);
	}

	/**
	 * Create a new event that folds several changes of the object into one.
	 * @param informerName the name of the informer
	 * @param resourceType the resource class of the informer
	 * @param oldResource the state listeners were last given
	 * @param resource the latest state
	 * @param coalesced how many earlier changes the event folds in
	 * @see #getCoalesced()
	 */
	public ResourceUpdatedEvent(String informerName, Class<T> resourceType, T oldResource, T resource, int coalesced) {
		super(informerName, resourceType, resource, coalesced);
		this.oldResource = oldResource;
	}

	/**
	 * Return the state the informer had cached before this change; for a
	 * {@link #isCoalesced() coalesced} event, the state listeners were last given.
	 * @return the previous state
	 */
	public T getOldResource() {
		return this.oldResource;
	}

	/**
	 * Return whether this event comes from a periodic resync rather than a change: old
	 * and new resourceVersion are equal.
	 * @return whether this is a resync
	 */
	public boolean isResync() {
		return Objects.equals(this.oldResource.getMetadata().getResourceVersion(),
				getResource().getMetadata().getResourceVersion());
	}

	@Override
	protected String describeDetails() {
		return ", oldResourceVersion=" + this.oldResource.getMetadata().getResourceVersion() + ", resync=" + isResync();
	}

}
