package dev.informer.watch;

/**
 * The types of delivered events, as counted in {@link WatchSnapshot.Events#byType()} and
 * tagged {@code type} in metrics with {@link #tagValue()}.
 *
 * @since 0.1.0
 */
public enum EventType {

	/**
	 * A resource appeared: {@link dev.informer.event.ResourceAddedEvent}.
	 */
	ADDED("added"),

	/**
	 * A resource changed: {@link dev.informer.event.ResourceUpdatedEvent} that is not a
	 * resync.
	 */
	UPDATED("updated"),

	/**
	 * A resource disappeared: {@link dev.informer.event.ResourceDeletedEvent}.
	 */
	DELETED("deleted"),

	/**
	 * A cached resource was replayed on the resync period: a
	 * {@link dev.informer.event.ResourceUpdatedEvent} with {@code isResync()}.
	 */
	RESYNC("resync");

	private final String tagValue;

	EventType(String tagValue) {
		this.tagValue = tagValue;
	}

	/**
	 * Return the value used in metric tags and in the {@code informers} endpoint, for
	 * example {@code added}.
	 * @return the tag value
	 */
	public String tagValue() {
		return this.tagValue;
	}

	@Override
	public String toString() {
		return this.tagValue;
	}

}
