package dev.informer.event;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Published when an informer sees a resource for the first time: during the initial list
 * (before {@link InformerSyncedEvent}) and whenever the resource is created afterwards.
 * <p>
 * With {@code informer.replicas.mode} {@code leader} or {@code sharded}, a replica that
 * takes over objects (it became leader, or its shard range grew) publishes each of them
 * once more as a <em>replay</em> ({@link #isReplay()}): the object may have been
 * published by another replica before, or changed while nobody published it. A
 * {@link ResourcesReplayedEvent} follows the replay.
 *
 * @param <T> the resource type
 * @since 0.1.0
 */
public class ResourceAddedEvent<T extends HasMetadata> extends ResourceEvent<T> {

	private final boolean replay;

	/**
	 * Create a new event.
	 * @param informerName the name of the informer
	 * @param resourceType the resource class of the informer
	 * @param resource the added resource
	 */
	public ResourceAddedEvent(String informerName, Class<T> resourceType, T resource) {
		this(informerName, resourceType, resource, false);
	}

	/**
	 * Create a new event.
	 * @param informerName the name of the informer
	 * @param resourceType the resource class of the informer
	 * @param resource the added resource
	 * @param replay whether the event replays an object this replica took over
	 */
	public ResourceAddedEvent(String informerName, Class<T> resourceType, T resource, boolean replay) {
		this(informerName, resourceType, resource, replay, 0);
	}

	/**
	 * Create a new event that folds later changes of the object into its add.
	 * @param informerName the name of the informer
	 * @param resourceType the resource class of the informer
	 * @param resource the resource, in its latest state
	 * @param replay whether the event replays an object this replica took over
	 * @param coalesced how many later changes the event folds in
	 * @see #getCoalesced()
	 */
	public ResourceAddedEvent(String informerName, Class<T> resourceType, T resource, boolean replay, int coalesced) {
		super(informerName, resourceType, resource, coalesced);
		this.replay = replay;
	}

	/**
	 * Return whether this event replays a cached object that this replica took over
	 * (became leader, or gained its shard range) rather than reports a change. Listeners
	 * that act on creation should be idempotent for replays.
	 * @return whether this is a replay
	 */
	public boolean isReplay() {
		return this.replay;
	}

	@Override
	protected String describeDetails() {
		return this.replay ? ", replay=true" : "";
	}

}
