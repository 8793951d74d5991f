package dev.informer.autoconfigure.observation;

import java.util.Set;
import java.util.stream.Collectors;

import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.autoconfigure.InformerProperties;
import dev.informer.observation.InformerEventObservationConvention;
import dev.informer.observation.ObservingListObserver;
import dev.informer.observation.ObservingListenerScope;

/**
 * Auto-configuration of an {@code informer.event} observation per delivered event and an
 * {@code informer.list} observation per list and relist, with
 * {@code informer.events.observation-enabled=true} (off by default, as Spring Kafka's
 * {@code spring.kafka.listener.observation-enabled}). Uses the context's
 * {@link ObservationRegistry} and an {@link InformerEventObservationConvention} bean if
 * there is one.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = InformerAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBooleanProperty("informer.events.observation-enabled")
public final class InformerObservationAutoConfiguration {

	@Bean
	ObservingListenerScope informerObservingListenerScope(ObjectProvider<ObservationRegistry> registry,
			ObjectProvider<InformerEventObservationConvention> convention, InformerProperties properties) {
		Set<String> bounded = properties.getResources()
			.entrySet()
			.stream()
			.filter((entry) -> !entry.getValue().getNamespaces().isEmpty()
					&& entry.getValue().getNamespaceSelector() == null)
			.map((entry) -> entry.getKey())
			.collect(Collectors.toUnmodifiableSet());
		return new ObservingListenerScope(registry.getIfAvailable(() -> ObservationRegistry.NOOP),
				convention.getIfAvailable(), bounded::contains);
	}

	@Bean
	ObservingListObserver informerObservingListObserver(ObjectProvider<ObservationRegistry> registry) {
		return new ObservingListObserver(registry.getIfAvailable(() -> ObservationRegistry.NOOP));
	}

}
