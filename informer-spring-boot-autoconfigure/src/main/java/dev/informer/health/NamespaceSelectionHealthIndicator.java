package dev.informer.health;

import java.time.Clock;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import dev.informer.watch.Watch;
import dev.informer.watch.WatchDetails;
import dev.informer.watch.WatchHealthPolicy;
import dev.informer.watch.WatchedInformer;

/**
 * The health of the watch on Namespaces that chooses an informer's namespaces
 * ({@code namespace-selector}), judged by the same {@link WatchHealthPolicy} as every
 * other watch: {@code DOWN} with {@code reason: Forbidden} when {@code list namespaces}
 * is refused, {@code WatchLost} when it has not watched for longer than the grace period,
 * {@code WatchFlapping} when it keeps failing. While it is down, namespaces that are
 * labelled or unlabelled do not join or leave. Details: the selector, the namespaces
 * matching, state, whether synced and watching, reconnects, relists and the last error.
 */
public class NamespaceSelectionHealthIndicator implements HealthIndicator {

	private final WatchedInformer<?> informer;

	private final WatchHealthPolicy policy;

	private final Clock clock;

	/**
	 * Create an indicator.
	 * @param informer an informer declared with a {@code namespace-selector}
	 * @param policy the health rules
	 * @param clock the clock, the one the informer uses
	 */
	public NamespaceSelectionHealthIndicator(WatchedInformer<?> informer, WatchHealthPolicy policy, Clock clock) {
		this.informer = informer;
		this.policy = policy;
		this.clock = clock;
	}

	@Override
	public Health health() {
		Watch watch = this.informer.getNamespaceWatch();
		if (watch == null) {
			return Health.outOfService()
				.withDetail("namespaceSelector",
						String.valueOf(this.informer.getDefinition().getDeclaration().getNamespaceSelector()))
				.withDetail("reason", "NotStarted")
				.build();
		}
		return WatchHealthRenderer.render(this.informer, watch, this.policy, this.clock,
				(snapshot) -> WatchDetails.ofNamespaceSelection(this.informer, snapshot));
	}

}
