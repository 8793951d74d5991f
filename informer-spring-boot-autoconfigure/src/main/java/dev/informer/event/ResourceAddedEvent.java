package dev.informer.event;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Published when an informer sees a resource for the first time: during the initial list
 * (before {@link InformerSyncedEvent}) and whenever the resource is created afterwards.
 *
 * @param <T> the resource type
 */
public class ResourceAddedEvent<T extends HasMetadata> extends ResourceEvent<T> {

	/**
	 * Create a new event.
	 * @param informerName the name of the informer
	 * @param resourceType the resource class of the informer
	 * @param resource the added resource
	 */
	public ResourceAddedEvent(String informerName, Class<T> resourceType, T resource) {
		super(informerName, resourceType, resource);
	}

}
