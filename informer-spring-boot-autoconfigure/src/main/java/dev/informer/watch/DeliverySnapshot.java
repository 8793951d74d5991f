package dev.informer.watch;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;

/**
 * This replica's part in delivering resource events when several replicas share the work
 * ({@code informer.replicas.*}), as of one moment.
 *
 * @param group the delivery group
 * @param identity this replica's identity
 * @param leaseNamespace the namespace of the Leases
 * @param informerModes the delivery mode of each informer
 * @param leadership the group's leader election, {@code null} when no informer is in
 * {@link DeliveryMode#LEADER} mode
 * @param sharding this replica's membership, {@code null} when no informer is in
 * {@link DeliveryMode#SHARDED} mode
 * @param takenAt when the snapshot was taken
 * @param staleness whether this replica's watches are current enough for it to publish
 * for the group, and whether it stepped down because they were not
 * @since 0.1.0
 */
public record DeliverySnapshot(String group, String identity, String leaseNamespace,
		Map<String, DeliveryMode> informerModes, @Nullable Leadership leadership, @Nullable Sharding sharding,
		Instant takenAt, Staleness staleness) {

	/**
	 * Create a snapshot of a replica whose watches are current.
	 * @param group the delivery group
	 * @param identity this replica's identity
	 * @param leaseNamespace the namespace of the Leases
	 * @param informerModes the delivery mode of each informer
	 * @param leadership the group's leader election, or {@code null}
	 * @param sharding this replica's membership, or {@code null}
	 * @param takenAt when the snapshot was taken
	 */
	public DeliverySnapshot(String group, String identity, String leaseNamespace,
			Map<String, DeliveryMode> informerModes, @Nullable Leadership leadership, @Nullable Sharding sharding,
			Instant takenAt) {
		this(group, identity, leaseNamespace, informerModes, leadership, sharding, takenAt, Staleness.NONE);
	}

	/**
	 * Whether this replica's watches are current enough for it to publish for the group
	 * ({@code informer.replicas.step-down-stale-after}).
	 *
	 * @param staleWatches the watches behind for longer than the bound, each with why and
	 * for how long; empty when every watch is current
	 * @param steppedDown whether this replica gave up its Lease (leader) or left the
	 * members (sharded) because of them, and does not compete until they are current
	 * again (or no other replica took its part)
	 * @param steppedDownAt when it last stepped down, {@code null} if never
	 * @param stepDowns how many times it stepped down because of stale watches
	 * @since 0.1.0
	 */
	public record Staleness(List<String> staleWatches, boolean steppedDown, @Nullable Instant steppedDownAt,
			long stepDowns) {

		/**
		 * Every watch current, never stepped down.
		 */
		public static final Staleness NONE = new Staleness(List.of(), false, null, 0);

		/**
		 * Create the staleness.
		 */
		public Staleness {
			staleWatches = List.copyOf(staleWatches);
		}

	}

	/**
	 * The group's leader election.
	 *
	 * @param role {@link DeliveryRole#LEADER} or {@link DeliveryRole#STANDBY}
	 * @param leaseName the name of the group's Lease
	 * @param leaseHolder the identity holding the Lease, when known
	 * @param lastRenewal when this replica last renewed the Lease as leader
	 * @param lastContact when this replica last read or wrote the Lease successfully
	 * @param handovers how many times this replica became leader or stopped being it
	 * @param refusal the API server's last refusal of a request on the Lease that no
	 * retry cures (Forbidden, Invalid...), while requests of that kind keep being refused
	 * @since 0.1.0
	 */
	public record Leadership(DeliveryRole role, String leaseName, @Nullable String leaseHolder,
			@Nullable Instant lastRenewal, @Nullable Instant lastContact, long handovers,
			@Nullable WatchError refusal) {

		/**
		 * Create a leadership whose Lease requests are not refused.
		 * @param role the role
		 * @param leaseName the name of the group's Lease
		 * @param leaseHolder the identity holding the Lease, when known
		 * @param lastRenewal when this replica last renewed the Lease as leader
		 * @param lastContact when this replica last read or wrote the Lease successfully
		 * @param handovers how many times this replica became leader or stopped being it
		 */
		public Leadership(DeliveryRole role, String leaseName, @Nullable String leaseHolder,
				@Nullable Instant lastRenewal, @Nullable Instant lastContact, long handovers) {
			this(role, leaseName, leaseHolder, lastRenewal, lastContact, handovers, null);
		}

	}

	/**
	 * This replica's membership of the group.
	 *
	 * @param role {@link DeliveryRole#MEMBER} or {@link DeliveryRole#DETACHED}
	 * @param leaseName the name of this replica's own Lease
	 * @param members the live members, in the order ranges are assigned
	 * @param ownedRanges the owned hash ranges as shard selector expressions
	 * @param serverSharding whether the API server filters lists and watches by range
	 * @param lastRenewal when this replica last renewed its Lease
	 * @param rangeChanges how many times the owned range changed
	 * @param refusal the API server's last refusal of a request on this replica's Lease
	 * that no retry cures (Forbidden, Invalid...), while requests of that kind keep being
	 * refused
	 * @since 0.1.0
	 */
	public record Sharding(DeliveryRole role, String leaseName, List<String> members, List<String> ownedRanges,
			boolean serverSharding, @Nullable Instant lastRenewal, long rangeChanges, @Nullable WatchError refusal) {

		/**
		 * Create a membership whose Lease requests are not refused.
		 * @param role the role
		 * @param leaseName the name of this replica's own Lease
		 * @param members the live members, in the order ranges are assigned
		 * @param ownedRanges the owned hash ranges as shard selector expressions
		 * @param serverSharding whether the API server filters lists and watches by range
		 * @param lastRenewal when this replica last renewed its Lease
		 * @param rangeChanges how many times the owned range changed
		 */
		public Sharding(DeliveryRole role, String leaseName, List<String> members, List<String> ownedRanges,
				boolean serverSharding, @Nullable Instant lastRenewal, long rangeChanges) {
			this(role, leaseName, members, ownedRanges, serverSharding, lastRenewal, rangeChanges, null);
		}

	}

}
