package dev.informer.health;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;

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
 * indicator. An informer declared with a {@code namespace-selector} is composite: a
 * {@value #NAMESPACE_SELECTOR} child reports the watch on Namespaces that chooses its
 * namespaces ({@link NamespaceSelectionHealthIndicator}), and one child per namespace it
 * watches now (which change as namespaces join and leave).
 * <p>
 * A probe only reads the statuses, in time linear in the number of watches; they are as
 * fresh as the last sample of the runtime's watch monitor.
 * <p>
 * When any informer is in {@code leader} or {@code sharded} mode a {@value #DELIVERY}
 * component reports this replica's part in delivery across replicas
 * ({@link DeliveryHealthIndicator}).
 */
public class InformersHealthContributor implements CompositeHealthContributor {

	/**
	 * The name of the component that reports delivery across replicas.
	 */
	public static final String DELIVERY = "delivery";

	/**
	 * The name of the component, below an informer declared with a
	 * {@code namespace-selector}, that reports its watch on Namespaces.
	 */
	public static final String NAMESPACE_SELECTOR = "namespaceSelector";

	private final WatchRegistry registry;

	private final WatchHealthPolicy policy;

	private final Clock clock;

	private final @Nullable DeliveryHealthIndicator delivery;

	/**
	 * Create a contributor.
	 * @param registry the informers
	 * @param policy the health rules
	 * @param clock the clock, the one the informers use
	 */
	public InformersHealthContributor(WatchRegistry registry, WatchHealthPolicy policy, Clock clock) {
		this(registry, policy, clock, null);
	}

	/**
	 * Create a contributor with a {@value #DELIVERY} component, present while any
	 * informer is in {@code leader} or {@code sharded} mode.
	 * @param registry the informers
	 * @param policy the health rules
	 * @param clock the clock, the one the informers use
	 * @param delivery the health of delivery across replicas, {@code null} for none
	 * @throws IllegalStateException if an informer is named {@value #DELIVERY}
	 */
	public InformersHealthContributor(WatchRegistry registry, WatchHealthPolicy policy, Clock clock,
			@Nullable DeliveryHealthIndicator delivery) {
		this.registry = registry;
		this.policy = policy;
		this.clock = clock;
		this.delivery = delivery;
		if (delivery != null && registry.names().contains(DELIVERY) && delivery.isShared()) {
			throw new IllegalStateException("Informer '" + DELIVERY + "' has the name of the health component of "
					+ "delivery across replicas (informer.replicas.mode); rename the informer under "
					+ "informer.resources");
		}
	}

	@Override
	public @Nullable HealthContributor getContributor(String name) {
		if (DELIVERY.equals(name) && this.delivery != null && this.delivery.isShared()) {
			return this.delivery;
		}
		return this.registry.names().contains(name) ? contributor(this.registry.informer(name)) : null;
	}

	@Override
	public Stream<Entry> stream() {
		Stream<Entry> informers = this.registry.informers()
			.stream()
			.map((informer) -> new Entry(informer.getName(), contributor(informer)));
		DeliveryHealthIndicator delivery = this.delivery;
		if (delivery != null && delivery.isShared()) {
			return Stream.concat(informers, Stream.of(new Entry(DELIVERY, delivery)));
		}
		return informers;
	}

	private HealthContributor contributor(WatchedInformer<?> informer) {
		List<Watch> statuses = informer.getWatches();
		String selector = informer.getDefinition().getDeclaration().getNamespaceSelector();
		if (selector == null && informer.getDefinition().getDeclaration().getNamespaces().size() <= 1) {
			return new InformerHealthIndicator(informer, statuses.get(0), this.policy, this.clock);
		}
		Map<String, HealthContributor> namespaces = new LinkedHashMap<>();
		if (selector != null) {
			// the watch on Namespaces that chooses them: not a valid namespace name, so
			// it never collides with one
			namespaces.put(NAMESPACE_SELECTOR,
					new NamespaceSelectionHealthIndicator(informer, this.policy, this.clock));
		}
		for (Watch status : statuses) {
			namespaces.put(String.valueOf(status.getNamespace()),
					new InformerHealthIndicator(informer, status, this.policy, this.clock));
		}
		return CompositeHealthContributor.fromMap(namespaces);
	}

}
