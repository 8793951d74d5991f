package dev.informer.event;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;

/**
 * Published after a replica replayed the objects it took over as
 * {@link ResourceAddedEvent}s flagged {@link ResourceAddedEvent#isReplay() replay}: it
 * became the group's leader, or its shard range grew. Objects a listener knew of that the
 * replay did not include were deleted, or left this replica's range, while no replica
 * published them.
 * <p>
 * Delivered in order with the informer's resource events, after the replay of one
 * namespace (or of the whole informer when it watches all namespaces).
 *
 * @since 0.1.0
 */
public class ResourcesReplayedEvent extends ApplicationEvent {

	private final String informerName;

	private final @Nullable String namespace;

	private final int count;

	private final String reason;

	/**
	 * Create a new event.
	 * @param informerName the name of the informer
	 * @param namespace the namespace replayed, {@code null} for all the informer watches
	 * @param count the number of objects replayed
	 * @param reason why: {@code leader} or {@code shard-range}
	 */
	public ResourcesReplayedEvent(String informerName, @Nullable String namespace, int count, String reason) {
		super(informerName);
		this.informerName = informerName;
		this.namespace = namespace;
		this.count = count;
		this.reason = reason;
	}

	/**
	 * Return the name of the informer.
	 * @return the informer name
	 */
	public String getInformerName() {
		return this.informerName;
	}

	/**
	 * Return the namespace whose objects were replayed, {@code null} when the informer
	 * watches all namespaces.
	 * @return the namespace or {@code null}
	 */
	public @Nullable String getNamespace() {
		return this.namespace;
	}

	/**
	 * Return the number of objects replayed.
	 * @return the count
	 */
	public int getCount() {
		return this.count;
	}

	/**
	 * Return why the objects were replayed: {@code leader} (this replica became leader)
	 * or {@code shard-range} (its shard range grew).
	 * @return the reason
	 */
	public String getReason() {
		return this.reason;
	}

	@Override
	public String toString() {
		return "ResourcesReplayedEvent[informer=" + this.informerName + ", namespace=" + this.namespace + ", count="
				+ this.count + ", reason=" + this.reason + "]";
	}

}
