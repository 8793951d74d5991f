package dev.informer.health;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;

import dev.informer.watch.Watch;
import dev.informer.watch.WatchHealthPolicy;
import dev.informer.watch.WatchRegistry;
import dev.informer.watch.WatchedInformer;

/**
 * The health of every informer: one child per informer, named after it. An informer that
 * watches several namespaces is itself composite, with one
 * {@link InformerHealthIndicator} per namespace, so that Spring Boot aggregates their
 * statuses and each namespace's state can be read on its own (for example at
 * {@code /actuator/health/informers/configmaps/team-a}); any other informer is a single
 * indicator. An informer declared with a {@code namespace-selector} is composite over the
 * namespaces it watches now (which change as namespaces join and leave), or, while none
 * matches, a single indicator that is UP and names its selector.
 * <p>
 * A probe only reads the statuses, in time linear in the number of watches; they are as
 * fresh as the last sample of the runtime's watch monitor.
 */
public class InformersHealthContributor implements CompositeHealthContributor {

	private final WatchRegistry registry;

	private final WatchHealthPolicy policy;

	private final Clock clock;

	/**
	 * Create a contributor.
	 * @param registry the informers
	 * @param policy the health rules
	 * @param clock the clock, the one the informers use
	 */
	public InformersHealthContributor(WatchRegistry registry, WatchHealthPolicy policy, Clock clock) {
		this.registry = registry;
		this.policy = policy;
		this.clock = clock;
	}

	@Override
	public @Nullable HealthContributor getContributor(String name) {
		return this.registry.names().contains(name) ? contributor(this.registry.informer(name)) : null;
	}

	@Override
	public Stream<Entry> stream() {
		return this.registry.informers()
			.stream()
			.map((informer) -> new Entry(informer.getName(), contributor(informer)));
	}

	private HealthContributor contributor(WatchedInformer<?> informer) {
		List<Watch> statuses = informer.getWatches();
		String selector = informer.getDefinition().getDeclaration().getNamespaceSelector();
		if (selector != null && statuses.isEmpty()) {
			// no namespace matches now: nothing is watched but the selection itself
			return (HealthIndicator) () -> Health.up()
				.withDetail("namespaceSelector", selector)
				.withDetail("namespaces", List.of())
				.build();
		}
		if (selector == null && informer.getDefinition().getDeclaration().getNamespaces().size() <= 1) {
			return new InformerHealthIndicator(informer, statuses.get(0), this.policy, this.clock);
		}
		Map<String, HealthContributor> namespaces = new LinkedHashMap<>();
		for (Watch status : statuses) {
			namespaces.put(String.valueOf(status.getNamespace()),
					new InformerHealthIndicator(informer, status, this.policy, this.clock));
		}
		return CompositeHealthContributor.fromMap(namespaces);
	}

}
