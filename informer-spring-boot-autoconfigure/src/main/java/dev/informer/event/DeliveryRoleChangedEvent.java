package dev.informer.event;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;

/**
 * Published when this replica's part in delivering resource events changes: it became the
 * group's leader or lost leadership ({@link DeliveryMode#LEADER}), or its shard range
 * changed because members joined or left ({@link DeliveryMode#SHARDED}).
 * <p>
 * Published on the starter's own thread, never on the one renewing the Lease.
 *
 * @since 0.1.0
 */
public class DeliveryRoleChangedEvent extends ApplicationEvent {

	private final DeliveryMode mode;

	private final DeliveryRole previousRole;

	private final DeliveryRole role;

	private final String group;

	private final String identity;

	private final @Nullable String leaseHolder;

	private final List<String> members;

	private final List<String> ownedRanges;

	/**
	 * Create a new event.
	 * @param mode the delivery mode concerned
	 * @param previousRole the role before
	 * @param role the role now
	 * @param group the delivery group
	 * @param identity this replica's identity
	 * @param leaseHolder the identity holding the group's Lease ({@code leader} mode), if
	 * known
	 * @param members the live members ({@code sharded} mode), in the order ranges are
	 * assigned
	 * @param ownedRanges the hash ranges this replica owns ({@code sharded} mode), as
	 * shard selector expressions
	 */
	public DeliveryRoleChangedEvent(DeliveryMode mode, DeliveryRole previousRole, DeliveryRole role, String group,
			String identity, @Nullable String leaseHolder, List<String> members, List<String> ownedRanges) {
		super(group);
		this.mode = mode;
		this.previousRole = previousRole;
		this.role = role;
		this.group = group;
		this.identity = identity;
		this.leaseHolder = leaseHolder;
		this.members = List.copyOf(members);
		this.ownedRanges = List.copyOf(ownedRanges);
	}

	/**
	 * Return the delivery mode whose role changed.
	 * @return the mode
	 */
	public DeliveryMode getMode() {
		return this.mode;
	}

	/**
	 * Return the role before the change.
	 * @return the previous role
	 */
	public DeliveryRole getPreviousRole() {
		return this.previousRole;
	}

	/**
	 * Return the role now.
	 * @return the role
	 */
	public DeliveryRole getRole() {
		return this.role;
	}

	/**
	 * Return the delivery group ({@code informer.replicas.group}).
	 * @return the group
	 */
	public String getGroup() {
		return this.group;
	}

	/**
	 * Return this replica's identity ({@code informer.replicas.identity}).
	 * @return the identity
	 */
	public String getIdentity() {
		return this.identity;
	}

	/**
	 * Return the identity holding the group's Lease, when known ({@code leader} mode).
	 * @return the holder or {@code null}
	 */
	public @Nullable String getLeaseHolder() {
		return this.leaseHolder;
	}

	/**
	 * Return the live members of the group ({@code sharded} mode), in the order ranges
	 * are assigned.
	 * @return the members
	 */
	public List<String> getMembers() {
		return this.members;
	}

	/**
	 * Return the hash ranges this replica owns ({@code sharded} mode), as shard selector
	 * expressions such as
	 * {@code shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')}.
	 * @return the owned ranges, empty when none
	 */
	public List<String> getOwnedRanges() {
		return this.ownedRanges;
	}

	@Override
	public String toString() {
		return "DeliveryRoleChangedEvent[mode=" + this.mode + ", group=" + this.group + ", identity=" + this.identity
				+ ", " + this.previousRole + " -> " + this.role + ", leaseHolder=" + this.leaseHolder + ", members="
				+ this.members + ", ownedRanges=" + this.ownedRanges + "]";
	}

}
