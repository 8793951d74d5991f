package dev.informer.health;

import java.time.Clock;
import java.time.Instant;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import dev.informer.watch.DeliveryDetails;
import dev.informer.watch.DeliveryHealthPolicy;
import dev.informer.watch.DeliverySnapshot;
import dev.informer.watch.DeliveryStatusSource;
import dev.informer.watch.WatchHealth;

/**
 * The health of this replica's part in delivery across replicas, judged by a
 * {@link DeliveryHealthPolicy}, with {@link DeliveryDetails} as details. Reads a snapshot
 * and never calls the API server.
 */
public class DeliveryHealthIndicator implements HealthIndicator {

	private final DeliveryStatusSource source;

	private final DeliveryHealthPolicy policy;

	private final Instant startedAt;

	/**
	 * Create an indicator.
	 * @param source the delivery state
	 * @param policy the health rules
	 * @param clock the clock whose present is the origin of the startup timeout
	 */
	public DeliveryHealthIndicator(DeliveryStatusSource source, DeliveryHealthPolicy policy, Clock clock) {
		this.source = source;
		this.policy = policy;
		this.startedAt = clock.instant();
	}

	/**
	 * Return whether there is anything to report: whether any informer is in
	 * {@code leader} or {@code sharded} mode.
	 * @return whether delivery is shared among replicas
	 */
	public boolean isShared() {
		return DeliveryDetails.isShared(this.source.snapshot());
	}

	@Override
	public Health health() {
		DeliverySnapshot snapshot = this.source.snapshot();
		WatchHealth health = this.policy.evaluate(snapshot, this.startedAt);
		Health.Builder builder = Health.status((health.level() == WatchHealth.Level.DOWN) ? Status.DOWN : Status.UP)
			.withDetails(DeliveryDetails.of(snapshot));
		if (health.reason() != null) {
			builder.withDetail("reason", health.reason());
		}
		return builder.build();
	}

}
