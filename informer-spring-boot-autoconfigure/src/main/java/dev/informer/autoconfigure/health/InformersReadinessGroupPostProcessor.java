package dev.informer.autoconfigure.health;

import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.AdditionalPathsMapper;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Adds the {@code informers} contributor to the {@code readiness} health group that
 * Spring Boot creates with {@code readinessState}, so that a pod receives traffic only
 * once its informers have synced, the way Boot adds {@code readinessState} itself. Leaves
 * the group alone when the application configured its members
 * ({@code management.endpoint.health.group.readiness.include} or {@code .exclude}); never
 * touches {@code liveness}: a lost watch is no reason to restart the pod. The
 * {@code informers/delivery} component joins only with
 * {@code informer.replicas.readiness=true}: a standby or a member whose Lease expired
 * still serves from a warm cache.
 * <p>
 * Runs last, after Boot has created the probe groups.
 */
final class InformersReadinessGroupPostProcessor implements HealthEndpointGroupsPostProcessor, Ordered {

	static final String CONTRIBUTOR = "informers";

	static final String GROUP = "readiness";

	static final String DELIVERY = CONTRIBUTOR + "/delivery";

	private static final String GROUP_PROPERTY = "management.endpoint.health.group." + GROUP;

	private final boolean membersConfigured;

	private final boolean deliveryInReadiness;

	InformersReadinessGroupPostProcessor(Environment environment) {
		Binder binder = Binder.get(environment);
		this.membersConfigured = binder.bind(GROUP_PROPERTY + ".include", Bindable.setOf(String.class)).isBound()
				|| binder.bind(GROUP_PROPERTY + ".exclude", Bindable.setOf(String.class)).isBound();
		// the deprecated alias too: binding the properties fails if both disagree
		this.deliveryInReadiness = binder.bind("informer.replicas.readiness", Boolean.class)
			.orElseGet(() -> binder.bind("informer.delivery.readiness", Boolean.class).orElse(false));
	}

	@Override
	public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
		HealthEndpointGroup readiness = groups.get(GROUP);
		if (this.membersConfigured || readiness == null || readiness.isMember(CONTRIBUTOR)) {
			return groups;
		}
		return new WithInformersInReadiness(groups, new InformersMember(readiness, this.deliveryInReadiness));
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	/**
	 * The groups, with the readiness group replaced. Keeps mapping the probes' additional
	 * paths ({@code /readyz}) as the groups it wraps did.
	 */
	private static final class WithInformersInReadiness implements HealthEndpointGroups, AdditionalPathsMapper {

		private final HealthEndpointGroups delegate;

		private final HealthEndpointGroup readiness;

		WithInformersInReadiness(HealthEndpointGroups delegate, HealthEndpointGroup readiness) {
			this.delegate = delegate;
			this.readiness = readiness;
		}

		@Override
		public HealthEndpointGroup getPrimary() {
			return this.delegate.getPrimary();
		}

		@Override
		public Set<String> getNames() {
			return this.delegate.getNames();
		}

		@Override
		public @Nullable HealthEndpointGroup get(String name) {
			return GROUP.equals(name) ? this.readiness : this.delegate.get(name);
		}

		@Override
		public @Nullable List<String> getAdditionalPaths(EndpointId endpointId, WebServerNamespace webServerNamespace) {
			return (this.delegate instanceof AdditionalPathsMapper mapper)
					? mapper.getAdditionalPaths(endpointId, webServerNamespace) : null;
		}

	}

	/**
	 * A group that also has the {@code informers} contributor as a member, its
	 * {@code delivery} component only if asked to. Spring Boot asks for every leaf of a
	 * composite by its path ({@code informers/configmaps/team-a}).
	 */
	private static final class InformersMember implements HealthEndpointGroup {

		private final HealthEndpointGroup delegate;

		private final boolean delivery;

		InformersMember(HealthEndpointGroup delegate, boolean delivery) {
			this.delegate = delegate;
			this.delivery = delivery;
		}

		@Override
		public boolean isMember(String name) {
			if (DELIVERY.equals(name) || name.startsWith(DELIVERY + "/")) {
				return this.delivery || this.delegate.isMember(name);
			}
			return CONTRIBUTOR.equals(name) || name.startsWith(CONTRIBUTOR + "/") || this.delegate.isMember(name);
		}

		@Override
		public boolean showComponents(SecurityContext securityContext) {
			return this.delegate.showComponents(securityContext);
		}

		@Override
		public boolean showDetails(SecurityContext securityContext) {
			return this.delegate.showDetails(securityContext);
		}

		@Override
		public StatusAggregator getStatusAggregator() {
			return this.delegate.getStatusAggregator();
		}

		@Override
		public HttpCodeStatusMapper getHttpCodeStatusMapper() {
			return this.delegate.getHttpCodeStatusMapper();
		}

		@Override
		public @Nullable AdditionalHealthEndpointPath getAdditionalPath() {
			return this.delegate.getAdditionalPath();
		}

	}

}
