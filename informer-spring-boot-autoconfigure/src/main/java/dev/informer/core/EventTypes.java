package dev.informer.core;

import java.util.List;

/**
 * The types of delivered events, as counted in {@link WatchStatus#getEvents()} and tagged in
 * metrics.
 */
public final class EventTypes {

	/**
	 * A resource appeared: {@link dev.informer.event.ResourceAddedEvent}.
	 */
	public static final String ADDED = "added";

	/**
	 * A resource changed: {@link dev.informer.event.ResourceUpdatedEvent} that is not a resync.
	 */
	public static final String UPDATED = "updated";

	/**
	 * A resource disappeared: {@link dev.informer.event.ResourceDeletedEvent}.
	 */
	public static final String DELETED = "deleted";

	/**
	 * A cached resource was replayed on the resync period: a
	 * {@link dev.informer.event.ResourceUpdatedEvent} with {@code isResync()}.
	 */
	public static final String RESYNC = "resync";

	/**
	 * All types, in a stable order.
	 */
	public static final List<String> ALL = List.of(ADDED, UPDATED, DELETED, RESYNC);

	private EventTypes() {
	}

}
