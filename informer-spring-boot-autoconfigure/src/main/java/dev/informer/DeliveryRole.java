package dev.informer;

/**
 * What a replica does for the informers of a {@link DeliveryMode}.
 *
 * @since 0.1.0
 */
public enum DeliveryRole {

	/**
	 * Publishes every resource event ({@link DeliveryMode#ALL}).
	 */
	ALL,

	/**
	 * Holds the group's Lease and publishes ({@link DeliveryMode#LEADER}).
	 */
	LEADER,

	/**
	 * Keeps its caches warm and publishes nothing until it becomes leader
	 * ({@link DeliveryMode#LEADER}).
	 */
	STANDBY,

	/**
	 * A live member of the group, publishing the objects of its shard range
	 * ({@link DeliveryMode#SHARDED}).
	 */
	MEMBER,

	/**
	 * Not (or no longer) a live member: its Lease is not renewed, so it publishes nothing
	 * ({@link DeliveryMode#SHARDED}).
	 */
	DETACHED

}
