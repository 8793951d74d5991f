package dev.informer.autoconfigure.health;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.autoconfigure.InformerProperties;
import dev.informer.health.DeliveryHealthIndicator;
import dev.informer.health.InformersHealthContributor;
import dev.informer.watch.DeliveryHealthPolicy;
import dev.informer.watch.DeliveryStatusSource;
import dev.informer.watch.WatchHealthPolicy;
import dev.informer.watch.WatchRegistry;

/**
 * Auto-configuration of the {@code informers} health contributor, which also joins the
 * {@code readiness} group unless the application chose that group's members. Its
 * {@code delivery} component (when an informer is in {@code leader} or {@code sharded}
 * mode) joins only with {@code informer.replicas.readiness=true}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = InformerAutoConfiguration.class,
		afterName = InformerHealthContributorAutoConfiguration.PROBES)
@ConditionalOnClass(HealthContributor.class)
@ConditionalOnBean(WatchRegistry.class)
@ConditionalOnEnabledHealthIndicator("informers")
public final class InformerHealthContributorAutoConfiguration {

	// the readiness group must exist before informers can join it
	static final String PROBES = "org.springframework.boot.health.autoconfigure.actuate.endpoint."
			+ "AvailabilityProbesAutoConfiguration";

	@Bean
	@ConditionalOnMissingBean(name = "informersHealthContributor")
	InformersHealthContributor informersHealthContributor(WatchRegistry registry, WatchHealthPolicy policy,
			@Qualifier(InformerAutoConfiguration.CLOCK_BEAN_NAME) Clock clock,
			ObjectProvider<DeliveryStatusSource> delivery, InformerProperties properties) {
		DeliveryStatusSource source = delivery.getIfUnique();
		DeliveryHealthIndicator indicator = (source != null)
				? new DeliveryHealthIndicator(source, new DeliveryHealthPolicy(
						properties.getReplicas().getLeaseDuration(), properties.getStartup().getTimeout()), clock)
				: null;
		return new InformersHealthContributor(registry, policy, clock, indicator);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
	@ConditionalOnBooleanProperty(name = "management.endpoint.health.probes.enabled", matchIfMissing = true)
	static class ReadinessGroupConfiguration {

		@Bean
		@ConditionalOnMissingBean
		InformersReadinessGroupPostProcessor informersReadinessGroupPostProcessor(Environment environment) {
			return new InformersReadinessGroupPostProcessor(environment);
		}

	}

}
