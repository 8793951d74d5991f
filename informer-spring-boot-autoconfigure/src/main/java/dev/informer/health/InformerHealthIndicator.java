package dev.informer.health;

import java.time.Clock;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import dev.informer.Informer;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchDetails;
import dev.informer.watch.WatchHealth;
import dev.informer.watch.WatchHealthPolicy;
import dev.informer.watch.WatchSnapshot;

/**
 * The health of one watch of an informer (one of its namespaces, or all of it), judged by
 * a {@link WatchHealthPolicy}, with {@link WatchDetails} as details.
 * <p>
 * Reads a snapshot of the watch as the runtime's watch monitor last sampled it and never
 * samples itself: a probe that sampled would sample every namespace of the informer once
 * per namespace indicator, and each of those samples would count in the availability
 * window that judges flapping.
 */
public class InformerHealthIndicator implements HealthIndicator {

	private final Informer<?> informer;

	private final Watch watch;

	private final WatchHealthPolicy policy;

	private final Clock clock;

	/**
	 * Create an indicator.
	 * @param informer the informer
	 * @param watch the watch to report
	 * @param policy the health rules
	 * @param clock the clock, the one the informer uses
	 */
	public InformerHealthIndicator(Informer<?> informer, Watch watch, WatchHealthPolicy policy, Clock clock) {
		this.informer = informer;
		this.watch = watch;
		this.policy = policy;
		this.clock = clock;
	}

	@Override
	public Health health() {
		WatchSnapshot snapshot = this.watch.snapshot();
		WatchHealth health = this.policy.evaluate(this.informer, snapshot, this.clock.instant());
		Health.Builder builder = Health.status(status(health.level()))
			.withDetails(WatchDetails.of(this.informer, snapshot));
		if (health.reason() != null) {
			builder.withDetail("reason", health.reason());
		}
		return builder.build();
	}

	private static Status status(WatchHealth.Level level) {
		return switch (level) {
			case UP -> Status.UP;
			case OUT_OF_SERVICE -> Status.OUT_OF_SERVICE;
			case DOWN -> Status.DOWN;
		};
	}

}
