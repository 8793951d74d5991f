package dev.informer.autoconfigure.endpoint;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.autoconfigure.InformerProperties;
import dev.informer.endpoint.InformersEndpoint;
import dev.informer.watch.DeliveryHealthPolicy;
import dev.informer.watch.DeliveryStatusSource;
import dev.informer.watch.WatchHealthPolicy;
import dev.informer.watch.WatchRegistry;

/**
 * Auto-configuration of the {@code informers} actuator endpoint, when it is enabled and
 * exposed ({@code management.endpoints.web.exposure.include=informers}).
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = InformerAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(WatchRegistry.class)
@ConditionalOnAvailableEndpoint(InformersEndpoint.class)
public final class InformerEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	InformersEndpoint informersEndpoint(WatchRegistry registry, WatchHealthPolicy policy,
			@Qualifier(InformerAutoConfiguration.CLOCK_BEAN_NAME) Clock clock,
			ObjectProvider<DeliveryStatusSource> delivery, InformerProperties properties) {
		DeliveryStatusSource source = delivery.getIfUnique();
		if (source == null) {
			return new InformersEndpoint(registry, policy, clock);
		}
		return new InformersEndpoint(registry, policy, clock, source, new DeliveryHealthPolicy(
				properties.getReplicas().getLeaseDuration(), properties.getStartup().getTimeout()));
	}

}
