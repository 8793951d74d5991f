package dev.informer.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.metrics.DeliveryMetrics;
import dev.informer.metrics.InformerMetrics;
import dev.informer.watch.DeliveryStatusSource;
import dev.informer.watch.WatchRegistry;

/**
 * Auto-configuration of informer metrics, bound to every {@link MeterRegistry} by Spring
 * Boot, and of the meters of delivery across replicas ({@link DeliveryMetrics}, which
 * register nothing unless an informer is in {@code leader} or {@code sharded} mode).
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = InformerAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, MeterBinder.class })
@ConditionalOnBean({ WatchRegistry.class, MeterRegistry.class })
public final class InformerMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	InformerMetrics informerMetrics(WatchRegistry registry) {
		return new InformerMetrics(registry);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(DeliveryStatusSource.class)
	DeliveryMetrics informerDeliveryMetrics(DeliveryStatusSource source) {
		return new DeliveryMetrics(source);
	}

}
