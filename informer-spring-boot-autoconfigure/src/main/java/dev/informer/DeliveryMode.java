package dev.informer;

/**
 * Which replicas of an application publish an informer's resource events, set with
 * {@code informer.replicas.mode} and per informer with
 * {@code informer.resources.<name>.replicas.mode}.
 * <p>
 * In every mode every replica runs its informers: health, metrics and the endpoint work
 * everywhere, and lifecycle events ({@code InformerSyncedEvent} and state changes) are
 * published by every replica.
 *
 * @since 0.1.0
 */
public enum DeliveryMode {

	/**
	 * Every replica publishes every resource event (the default).
	 */
	ALL,

	/**
	 * Only the replica holding the group's Lease publishes resource events; the others
	 * keep their caches warm. A replica that becomes leader first replays its cache. A
	 * replica that stopped leading still delivers, for as long as tombstones are kept,
	 * the deletes of what it published, flagged as replays: the new leader may never have
	 * seen those objects.
	 */
	LEADER,

	/**
	 * Each object is published by exactly one live member of the group, chosen by a hash
	 * of its uid; with the API server's shard selectors, each replica also lists and
	 * watches only its range.
	 */
	SHARDED

}
