package dev.informer.watch;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;

/**
 * This replica's part in delivering resource events when several replicas share the work
 * ({@code informer.delivery.*}), as of one moment.
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
 * @since 0.1.0
 */
public record DeliverySnapshot(String group, String identity, String leaseNamespace,
		Map<String, DeliveryMode> informerModes, @Nullable Leadership leadership, @Nullable Sharding sharding,
		Instant takenAt) {

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
