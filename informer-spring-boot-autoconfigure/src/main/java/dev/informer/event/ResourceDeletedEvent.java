package dev.informer.event;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Published when a resource is deleted.
 *
 * @param <T> the resource type
 * @since 0.1.0
 */
public class ResourceDeletedEvent<T extends HasMetadata> extends ResourceEvent<T> {

	private final boolean finalStateUnknown;

	private final boolean leftSelection;

	/**
	 * Create a new event.
	 * @param informerName the name of the informer
	 * @param resourceType the resource class of the informer
	 * @param resource the last known state of the resource
	 * @param finalStateUnknown whether the deletion was detected by a relist
	 */
	public ResourceDeletedEvent(String informerName, Class<T> resourceType, T resource, boolean finalStateUnknown) {
		this(informerName, resourceType, resource, finalStateUnknown, false);
	}

	/**
	 * Create a new event.
	 * @param informerName the name of the informer
	 * @param resourceType the resource class of the informer
	 * @param resource the last known state of the resource
	 * @param finalStateUnknown whether the deletion was detected by a relist
	 * @param leftSelection whether the resource was not deleted but its namespace left
	 * the informer's {@code namespace-selector}
	 */
	public ResourceDeletedEvent(String informerName, Class<T> resourceType, T resource, boolean finalStateUnknown,
			boolean leftSelection) {
		this(informerName, resourceType, resource, finalStateUnknown, leftSelection, 0);
	}

	/**
	 * Create a new event that folds earlier changes of the object into its delete.
	 * @param informerName the name of the informer
	 * @param resourceType the resource class of the informer
	 * @param resource the last known state of the resource
	 * @param finalStateUnknown whether the deletion was detected by a relist
	 * @param leftSelection whether the resource was not deleted but its namespace left
	 * the informer's {@code namespace-selector}
	 * @param coalesced how many earlier changes the event folds in
	 * @see #getCoalesced()
	 */
	public ResourceDeletedEvent(String informerName, Class<T> resourceType, T resource, boolean finalStateUnknown,
			boolean leftSelection, int coalesced) {
		super(informerName, resourceType, resource, coalesced);
		this.finalStateUnknown = finalStateUnknown;
		this.leftSelection = leftSelection;
	}

	/**
	 * Return whether the deletion was noticed by a relist (for example after the watch
	 * expired with 410 Gone) instead of a watch event: {@link #getResource()} is then the
	 * last state the informer had cached, not the state at deletion.
	 * @return whether the final state is unknown
	 */
	public boolean isFinalStateUnknown() {
		return this.finalStateUnknown;
	}

	/**
	 * Return whether the resource left the informer's view without being deleted: its
	 * namespace stopped matching the informer's {@code namespace-selector} (or was
	 * deleted), so the namespace's watch stopped and its objects left the cache.
	 * {@link #getResource()} is then the last state listeners received.
	 * @return whether the resource left the selection
	 */
	public boolean isLeftSelection() {
		return this.leftSelection;
	}

	@Override
	protected String describeDetails() {
		return ", finalStateUnknown=" + this.finalStateUnknown + (this.leftSelection ? ", leftSelection=true" : "");
	}

}
