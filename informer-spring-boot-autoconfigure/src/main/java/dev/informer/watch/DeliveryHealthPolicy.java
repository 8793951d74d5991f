package dev.informer.watch;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.informer.DeliveryRole;

/**
 * When this replica's part in delivery across replicas ({@code informer.replicas.*}) is
 * healthy. A standby is as healthy as a leader: both keep their caches warm and either
 * can publish. What matters is whether this replica still reaches its Lease:
 * <ul>
 * <li>{@code leader} mode: {@code DOWN} ({@value #LEASE_UNREACHABLE}) when the last
 * successful read or write of the group's Lease is older than the lease duration, or when
 * there has been none for the startup timeout. Such a replica cannot lead, and if it led
 * it has stopped publishing: another replica has taken over or nobody publishes.</li>
 * <li>{@code sharded} mode: {@code DOWN} ({@value #LEASE_EXPIRED}) when this replica's
 * own Lease was last renewed longer ago than the lease duration, or never within the
 * startup timeout. The other members then count it out and own its objects. Not while it
 * stands aside because its watches are stale: it deleted its Lease itself.</li>
 * </ul>
 * Either mode: {@code DOWN}, with the API server's reason ({@code Forbidden},
 * {@code Invalid}...), while it refuses this replica's requests on its Lease in a way no
 * retry cures: such a replica cannot lead or own a range however long it waits. Otherwise
 * {@code UP}, with the reason {@value #STALE_WATCHES} while this replica stands aside
 * because its watches are stale ({@code informer.replicas.step-down-stale-after}): it
 * still works as a standby, and its watches' own health says what is wrong with them.
 *
 * @since 0.1.0
 */
public final class DeliveryHealthPolicy {

	/**
	 * The reason of a replica that has not reached the group's Lease for too long.
	 */
	public static final String LEASE_UNREACHABLE = "LeaseUnreachable";

	/**
	 * The reason of a sharded replica whose own Lease has expired.
	 */
	public static final String LEASE_EXPIRED = "LeaseExpired";

	/**
	 * The reason of a replica that gave its part up because its watches are stale.
	 */
	public static final String STALE_WATCHES = "StaleWatches";

	private final Duration leaseDuration;

	private final Duration startupTimeout;

	/**
	 * Create a policy.
	 * @param leaseDuration how long a Lease lasts without renewal
	 * @param startupTimeout how long a replica may take to reach its Lease at first
	 */
	public DeliveryHealthPolicy(Duration leaseDuration, Duration startupTimeout) {
		this.leaseDuration = leaseDuration;
		this.startupTimeout = startupTimeout;
	}

	/**
	 * Judge a snapshot as of the moment it was taken.
	 * @param snapshot the snapshot
	 * @param startedAt when this replica started (the origin of the startup timeout)
	 * @return the health, with a reason unless up
	 */
	public WatchHealth evaluate(DeliverySnapshot snapshot, Instant startedAt) {
		Instant now = snapshot.takenAt();
		DeliverySnapshot.Leadership leadership = snapshot.leadership();
		DeliverySnapshot.Sharding sharding = snapshot.sharding();
		WatchError refusal = (leadership != null) ? leadership.refusal() : null;
		if (refusal == null && sharding != null) {
			refusal = sharding.refusal();
		}
		if (refusal != null) {
			return new WatchHealth(WatchHealth.Level.DOWN, refusal.reason());
		}
		if (leadership != null && stale(leadership.lastContact(), now, startedAt)) {
			return new WatchHealth(WatchHealth.Level.DOWN, LEASE_UNREACHABLE);
		}
		if (sharding != null && sharding.role() == DeliveryRole.DETACHED && !snapshot.staleness().steppedDown()
				&& stale(sharding.lastRenewal(), now, startedAt)) {
			return new WatchHealth(WatchHealth.Level.DOWN, LEASE_EXPIRED);
		}
		if (snapshot.staleness().steppedDown()) {
			return new WatchHealth(WatchHealth.Level.UP, STALE_WATCHES);
		}
		return WatchHealth.UP;
	}

	private boolean stale(@Nullable Instant last, Instant now, Instant startedAt) {
		if (last == null) {
			return Duration.between(startedAt, now).compareTo(this.startupTimeout) > 0;
		}
		return Duration.between(last, now).compareTo(this.leaseDuration) > 0;
	}

	/**
	 * Return how long a Lease lasts without renewal.
	 * @return the lease duration
	 */
	public Duration getLeaseDuration() {
		return this.leaseDuration;
	}

}
