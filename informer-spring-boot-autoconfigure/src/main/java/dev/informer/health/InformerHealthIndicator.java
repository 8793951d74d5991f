package dev.informer.health;

import java.time.Clock;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import dev.informer.core.ResourceInformer;
import dev.informer.core.WatchStatus;

/**
 * The health of one watch of an informer (one of its namespaces, or all of it), judged by a
 * {@link WatchHealthPolicy}, with {@link WatchDetails} as details.
 * <p>
 * Reads the watch's status as the {@link dev.informer.core.WatchMonitor} last sampled it and
 * never samples itself: a probe that sampled would sample every namespace of the informer
 * once per namespace indicator, and each of those samples would count in the availability
 * window that judges flapping.
 */
public class InformerHealthIndicator implements HealthIndicator {

	private final ResourceInformer<?> informer;

	private final WatchStatus status;

	private final WatchHealthPolicy policy;

	private final Clock clock;

	/**
	 * Create an indicator.
	 * @param informer the informer
	 * @param status the status of the watch to report
	 * @param policy the health rules
	 * @param clock the clock, the one the informer uses
	 */
	public InformerHealthIndicator(ResourceInformer<?> informer, WatchStatus status, WatchHealthPolicy policy,
			Clock clock) {
		this.informer = informer;
		this.status = status;
		this.policy = policy;
		this.clock = clock;
	}

	@Override
	public Health health() {
		WatchHealth health = this.policy.evaluate(this.informer, this.status, this.clock.instant());
		Health.Builder builder = Health.status(status(health.level()))
			.withDetails(WatchDetails.of(this.informer, this.status));
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
