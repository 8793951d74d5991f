package dev.informer.event;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

/**
 * Published when a resource is deleted.
 *
 * @param <T> the resource type
 * @since 0.1.0
 */
public class ResourceDeletedEvent<T extends HasMetadata> extends ResourceEvent<T> {

	private final boolean finalStateUnknown;

	private final boolean leftSelection;

	private final boolean replay;

	private final @Nullable String observedResourceVersion;

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
		this(informerName, resourceType, resource, finalStateUnknown, leftSelection, coalesced, false);
	}

	/**
	 * Create a new event, flagged as a replay or not.
	 * @param informerName the name of the informer
	 * @param resourceType the resource class of the informer
	 * @param resource the last known state of the resource
	 * @param finalStateUnknown whether the deletion was detected by a relist
	 * @param leftSelection whether the resource was not deleted but its namespace left
	 * the informer's {@code namespace-selector}
	 * @param coalesced how many earlier changes the event folds in
	 * @param replay whether a replica that took over delivers a delete it did not deliver
	 * when it happened
	 * @see #isReplay()
	 */
	public ResourceDeletedEvent(String informerName, Class<T> resourceType, T resource, boolean finalStateUnknown,
			boolean leftSelection, int coalesced, boolean replay) {
		this(informerName, resourceType, resource, finalStateUnknown, leftSelection, coalesced, replay, null);
	}

	/**
	 * Create a new event, with the resourceVersion at which the deletion was observed.
	 * @param informerName the name of the informer
	 * @param resourceType the resource class of the informer
	 * @param resource the last known state of the resource
	 * @param finalStateUnknown whether the deletion was detected by a relist
	 * @param leftSelection whether the resource was not deleted but its namespace left
	 * the informer's {@code namespace-selector}
	 * @param coalesced how many earlier changes the event folds in
	 * @param replay whether a replica that took over delivers a delete it did not deliver
	 * when it happened
	 * @param observedResourceVersion the resourceVersion at which the deletion was
	 * observed, {@code null} for the resource's own
	 * @see #getObservedResourceVersion()
	 */
	public ResourceDeletedEvent(String informerName, Class<T> resourceType, T resource, boolean finalStateUnknown,
			boolean leftSelection, int coalesced, boolean replay, @Nullable String observedResourceVersion) {
		super(informerName, resourceType, resource, coalesced);
		this.finalStateUnknown = finalStateUnknown;
		this.leftSelection = leftSelection;
		this.replay = replay;
		this.observedResourceVersion = observedResourceVersion;
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

	/**
	 * Return whether this delete is replayed: the replica that publishes it took over (it
	 * became leader, its shard range grew, or its Lease counts as held again after a
	 * lapse) and delivers a delete it did not deliver when it happened, because another
	 * replica was to deliver it or its own Lease had lapsed. The previous publisher may
	 * have delivered it already: apply it as any delete (removing an object you do not
	 * hold changes nothing). Symmetric to {@link ResourceAddedEvent#isReplay()}.
	 * @return whether replayed
	 */
	public boolean isReplay() {
		return this.replay;
	}

	/**
	 * Return the resourceVersion at which the deletion was observed: the API server had
	 * no object under this name then. For a delete from a watch it is the resource's own
	 * ({@link #getResourceVersion()}, the version of the deletion); for a delete found by
	 * a relist ({@link #isFinalStateUnknown()}) it is the list's resourceVersion, which
	 * can be far newer than the last known state the event carries; a replayed delete
	 * keeps the one of the delete it replays. One exception: when a relist finds the name
	 * deleted and created again (a new uid), the old object's delete carries the old
	 * object's resourceVersion, since the name was not absent at the list's.
	 * <p>
	 * A listener of one replica needs none of this: applied in the order received, its
	 * events end equal to the server. It places a delete among the events of several
	 * replicas: folded by resourceVersion, a delete removes every state of its name at or
	 * below this version, whichever replica delivered it and whatever its uid (see
	 * {@code docs/reliability.md}, the contract).
	 * @return the resourceVersion at which the object was observed absent
	 */
	public @Nullable String getObservedResourceVersion() {
		return (this.observedResourceVersion != null) ? this.observedResourceVersion : getResourceVersion();
	}

	@Override
	protected String describeDetails() {
		return ", finalStateUnknown=" + this.finalStateUnknown + (this.leftSelection ? ", leftSelection=true" : "")
				+ (this.replay ? ", replay=true" : "") + ((this.observedResourceVersion != null)
						? ", observedResourceVersion=" + this.observedResourceVersion : "");
	}

}
