package dev.informer.event;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;
import org.springframework.core.ResolvableType;
import org.springframework.core.ResolvableTypeProvider;
import org.springframework.util.ConcurrentReferenceHashMap;

/**
 * Base class of the events an informer publishes for a change of one Kubernetes object.
 * <p>
 * The event resolves its generic type from the resource class the informer was declared
 * with, so that {@code @EventListener void on(ResourceAddedEvent<ConfigMap> event)} only
 * receives ConfigMaps. Resources without a Java class are published as
 * {@link io.fabric8.kubernetes.api.model.GenericKubernetesResource}; tell them apart with
 * a condition such as
 * {@code @EventListener(condition = "#event.informerName == 'widgets'")}.
 * <p>
 * {@link #toString()} never prints the resource's content (Secrets would leak into logs).
 *
 * @param <T> the resource type
 * @since 0.1.0
 */
public abstract class ResourceEvent<T extends HasMetadata> extends ApplicationEvent implements ResolvableTypeProvider {

	/**
	 * The resolvable type of each (event class, resource class), built once: Spring asks
	 * for it on every publish, and building it anew costs more than finding the
	 * listeners. Held through a {@link ClassValue} per event class and soft references
	 * per resource class, so that neither class is kept from being unloaded.
	 */
	private static final ClassValue<ConcurrentReferenceHashMap<Class<?>, ResolvableType>> resolvableTypes = new ClassValue<>() {

		@Override
		protected ConcurrentReferenceHashMap<Class<?>, ResolvableType> computeValue(Class<?> eventClass) {
			return new ConcurrentReferenceHashMap<>();
		}

	};

	private final String informerName;

	private final Class<T> resourceType;

	private final T resource;

	private final int coalesced;

	/**
	 * Create a new event.
	 * @param informerName the name of the informer that observed the change
	 * @param resourceType the resource class the informer was declared with
	 * @param resource the resource as the event describes it
	 */
	protected ResourceEvent(String informerName, Class<T> resourceType, T resource) {
		this(informerName, resourceType, resource, 0);
	}

	/**
	 * Create a new event that stands for more than one change of its object.
	 * @param informerName the name of the informer that observed the change
	 * @param resourceType the resource class the informer was declared with
	 * @param resource the resource as the event describes it
	 * @param coalesced how many earlier changes of the object this event folds in
	 * @see #getCoalesced()
	 */
	protected ResourceEvent(String informerName, Class<T> resourceType, T resource, int coalesced) {
		super(informerName);
		this.informerName = informerName;
		this.resourceType = resourceType;
		this.resource = resource;
		this.coalesced = coalesced;
	}

	/**
	 * Return the name of the informer (the key under {@code informer.resources}).
	 * @return the informer name
	 */
	public String getInformerName() {
		return this.informerName;
	}

	/**
	 * Return the resource class of the informer.
	 * @return the resource class
	 */
	public Class<T> getResourceType() {
		return this.resourceType;
	}

	/**
	 * Return the resource: the new state for added and updated events, the last known
	 * state for deleted events.
	 * @return the resource
	 */
	public T getResource() {
		return this.resource;
	}

	/**
	 * Return the kind of the resource, for example {@code ConfigMap}.
	 * @return the kind
	 */
	public String getKind() {
		String kind = this.resource.getKind();
		return (kind != null) ? kind : this.resourceType.getSimpleName();
	}

	/**
	 * Return the namespace of the resource, {@code null} for cluster-scoped resources.
	 * @return the namespace or {@code null}
	 */
	public @Nullable String getNamespace() {
		ObjectMeta metadata = this.resource.getMetadata();
		return (metadata != null) ? metadata.getNamespace() : null;
	}

	/**
	 * Return the name of the resource.
	 * @return the name
	 */
	public @Nullable String getName() {
		ObjectMeta metadata = this.resource.getMetadata();
		return (metadata != null) ? metadata.getName() : null;
	}

	/**
	 * Return the resourceVersion of {@link #getResource()}.
	 * @return the resource version
	 */
	public @Nullable String getResourceVersion() {
		ObjectMeta metadata = this.resource.getMetadata();
		return (metadata != null) ? metadata.getResourceVersion() : null;
	}

	/**
	 * Return how many changes of the object were folded into this event, 0 for an event
	 * that reports one change as it happened. Only with
	 * {@code informer.listeners.overflow=coalesce}, once listeners are
	 * {@code informer.listeners.max-backlog} changes behind: the changes in between were
	 * never delivered, and this event carries the latest state (for an update,
	 * {@link ResourceUpdatedEvent#getOldResource()} is still the state listeners were
	 * last given).
	 * @return the number of changes folded in
	 */
	public int getCoalesced() {
		return this.coalesced;
	}

	/**
	 * Return whether this event stands for more than one change of its object.
	 * @return whether {@link #getCoalesced()} is positive
	 * @see #getCoalesced()
	 */
	public boolean isCoalesced() {
		return this.coalesced > 0;
	}

	@Override
	public ResolvableType getResolvableType() {
		Class<?> eventClass = getClass();
		return resolvableTypes.get(eventClass)
			.computeIfAbsent(this.resourceType,
					(resourceType) -> ResolvableType.forClassWithGenerics(eventClass, resourceType));
	}

	/**
	 * Return extra fields for {@link #toString()}; never resource content.
	 * @return a comma-prefixed string or an empty one
	 */
	protected String describeDetails() {
		return "";
	}

	@Override
	public String toString() {
		String namespace = getNamespace();
		String object = (namespace != null) ? namespace + "/" + getName() : String.valueOf(getName());
		return getClass().getSimpleName() + "[informer=" + this.informerName + ", kind=" + getKind() + ", object="
				+ object + ", resourceVersion=" + getResourceVersion() + describeDetails()
				+ ((this.coalesced > 0) ? ", coalesced=" + this.coalesced : "") + "]";
	}

}
