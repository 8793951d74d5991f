package dev.informer.health;

import java.time.Clock;
import java.util.Map;
import java.util.function.Function;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.informer.Informer;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchHealth;
import dev.informer.watch.WatchHealthPolicy;
import dev.informer.watch.WatchSnapshot;

/**
 * Renders the health of one watch, as {@link InformerHealthIndicator} and
 * {@link NamespaceSelectionHealthIndicator} report it: one snapshot, judged by the
 * {@link WatchHealthPolicy}, with its details and the reason.
 */
final class WatchHealthRenderer {

	private WatchHealthRenderer() {
	}

	/**
	 * Render the health of a watch from one snapshot of it.
	 * @param informer the informer
	 * @param watch one of its watches
	 * @param policy the health rules
	 * @param clock the clock, the one the informer uses
	 * @param details the details of the snapshot
	 * @return the health
	 */
	static Health render(Informer<?> informer, Watch watch, WatchHealthPolicy policy, Clock clock,
			Function<WatchSnapshot, Map<String, Object>> details) {
		WatchSnapshot snapshot = watch.snapshot();
		WatchHealth health = policy.evaluate(informer, snapshot, clock.instant());
		Health.Builder builder = Health.status(status(health.level())).withDetails(details.apply(snapshot));
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
