package dev.informer.runtime.replicas;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

import dev.informer.DeliveryMode;

/**
 * How the replicas of an application share the delivery of resource events
 * ({@code informer.replicas.*}).
 *
 * @param mode the mode of informers that do not set their own
 * @param modes the informers that set their own mode
 * @param group the group the replicas form: the name of its Leases
 * @param identity this replica's identity in the Leases
 * @param leaseNamespace the namespace of the Leases
 * @param leaseDuration how long a Lease lasts without renewal before another replica may
 * take it
 * @param renewDeadline how long a holder keeps trying to renew before it stops
 * publishing; shorter than {@code leaseDuration}
 * @param retryPeriod how often Leases are renewed, tried and read
 * @param serverSharding whether to use the API server's shard selectors when it serves
 * them
 * @param staleAfter how long nothing may arrive on an open watch before it counts as
 * behind ({@code informer.health.stale-after})
 * @param stepDownStaleAfter how long a watch of a {@code leader} informer may be behind
 * before this replica gives up the group's Lease until its watches are current again
 * @since 0.1.0
 */
public record DeliveryOptions(DeliveryMode mode, Map<String, DeliveryMode> modes, String group, String identity,
		String leaseNamespace, Duration leaseDuration, Duration renewDeadline, Duration retryPeriod,
		boolean serverSharding, Duration staleAfter, Duration stepDownStaleAfter) {

	/**
	 * The default of {@code informer.replicas.step-down-stale-after}: 2 minutes, longer
	 * than {@code informer.reliability.restart-silent-watch-after} (75 s) plus a
	 * reconnect, so that a silent watch is restarted first, and as long as
	 * {@code informer.reliability.replace-stalled-after}.
	 */
	public static final Duration DEFAULT_STEP_DOWN_STALE_AFTER = Duration.ofMinutes(2);

	/**
	 * The default of {@code informer.health.stale-after}, as the staleness of watches
	 * judges it.
	 */
	static final Duration DEFAULT_STALE_AFTER = Duration.ofSeconds(65);

	/**
	 * The label that marks the Leases of a sharded group's members.
	 */
	public static final String GROUP_LABEL = "informer.dev/delivery-group";

	/**
	 * Create the options.
	 */
	public DeliveryOptions {
		modes = Map.copyOf(modes);
	}

	/**
	 * Create options that judge stale watches by the default bounds.
	 * @param mode the mode of informers that do not set their own
	 * @param modes the informers that set their own mode
	 * @param group the group the replicas form
	 * @param identity this replica's identity in the Leases
	 * @param leaseNamespace the namespace of the Leases
	 * @param leaseDuration how long a Lease lasts without renewal
	 * @param renewDeadline how long a holder keeps trying to renew before it stops
	 * publishing
	 * @param retryPeriod how often Leases are renewed, tried and read
	 * @param serverSharding whether to use the API server's shard selectors
	 */
	public DeliveryOptions(DeliveryMode mode, Map<String, DeliveryMode> modes, String group, String identity,
			String leaseNamespace, Duration leaseDuration, Duration renewDeadline, Duration retryPeriod,
			boolean serverSharding) {
		this(mode, modes, group, identity, leaseNamespace, leaseDuration, renewDeadline, retryPeriod, serverSharding,
				DEFAULT_STALE_AFTER, DEFAULT_STEP_DOWN_STALE_AFTER);
	}

	/**
	 * Return the mode of an informer.
	 * @param informer the informer's name
	 * @return its mode
	 */
	public DeliveryMode modeOf(String informer) {
		return this.modes.getOrDefault(informer, this.mode);
	}

	/**
	 * Return how far back a replica that takes objects over from another catches up on
	 * their deletes: the replica that published them stopped at most its renew deadline
	 * after its last renewal, which the others saw within a retry period and count as
	 * expired a lease duration later, noticed at their next tick. Twice the lease
	 * duration plus two retry periods covers that, and a backlog its listeners were still
	 * working through, with a margin.
	 * @return the window
	 */
	public Duration takeoverWindow() {
		return this.leaseDuration.multipliedBy(2).plus(this.retryPeriod.multipliedBy(2));
	}

	/**
	 * Return the name of the group's leader Lease.
	 * @return the name
	 */
	public String leaderLeaseName() {
		return this.group;
	}

	/**
	 * Return the name of this replica's own Lease in a sharded group: the group and the
	 * identity, shortened with a hash when longer than a Kubernetes name may be.
	 * @return the name
	 */
	public String memberLeaseName() {
		String name = leaseName(this.group + "-" + this.identity);
		if (name.length() > 253) {
			String hash = Long.toHexString(ShardRanges.hash(name));
			name = leaseName(name.substring(0, 253 - hash.length() - 1) + "-" + hash);
		}
		return name;
	}

	/**
	 * Return a value made into a Kubernetes object name: lower case, other characters
	 * replaced by '-', starting and ending with a letter or digit.
	 * @param value the value
	 * @return the name, empty when nothing of the value is left
	 */
	public static String leaseName(String value) {
		return value.toLowerCase(Locale.ROOT)
			.replaceAll("[^a-z0-9.-]+", "-")
			.replaceAll("^[^a-z0-9]+", "")
			.replaceAll("[^a-z0-9]+$", "");
	}

}
