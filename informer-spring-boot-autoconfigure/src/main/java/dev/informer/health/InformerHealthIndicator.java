package dev.informer.health;

import java.time.Clock;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import dev.informer.Informer;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchDetails;
import dev.informer.watch.WatchHealthPolicy;

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
		return WatchHealthRenderer.render(this.informer, this.watch, this.policy, this.clock,
				(snapshot) -> WatchDetails.of(this.informer, snapshot));
	}

}
