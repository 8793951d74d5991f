package dev.informer.observation;

import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationListener;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.listeners.MdcListenerScope;
import dev.informer.test.TestResources;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One {@code informer.event} observation per delivered event, with the documented keys,
 * listener failures recorded on it, the namespace low-cardinality only when bounded, and
 * a convention that replaces the default one.
 */
class ObservingListenerScopeTests {

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	private final InformerEventPublisher publisher = new InformerEventPublisher();

	@Test
	void anObservationPerEventWithLowAndHighCardinalityKeysAndTheListenersErrors() {
		this.publisher.setListenerScope(new ObservingListenerScope(this.registry, null, (informer) -> true));
		IllegalStateException failure = new IllegalStateException("listener failed");
		this.publisher.addListener((ApplicationListener<ResourceAddedEvent<?>>) (event) -> {
			throw failure;
		});
		ConfigMap resource = TestResources.configMap("team-a", "settings", "v");
		resource.getMetadata().setResourceVersion("42");
		int failures = this.publisher.publish(new ResourceAddedEvent<>("configmaps", ConfigMap.class, resource));
		assertThat(failures).isOne();
		assertThat(this.registry).hasNumberOfObservationsEqualTo(1)
			.hasSingleObservationThat()
			.hasBeenStarted()
			.hasBeenStopped()
			.hasNameEqualTo("informer.event")
			.hasContextualNameEqualTo("informer configmaps added")
			.hasLowCardinalityKeyValue("informer", "configmaps")
			.hasLowCardinalityKeyValue("kind", "ConfigMap")
			.hasLowCardinalityKeyValue("type", "added")
			.hasLowCardinalityKeyValue("k8s.namespace.name", "team-a")
			.hasHighCardinalityKeyValue("name", "settings")
			.hasHighCardinalityKeyValue("resource.version", "42")
			.hasError(failure);
	}

	@Test
	void theNamespaceIsHighCardinalityWhenTheNamespacesAreNotBounded() {
		this.publisher.setListenerScope(new ObservingListenerScope(this.registry, null, (informer) -> false));
		ConfigMap resource = TestResources.configMap("team-a", "settings", "v");
		this.publisher.publish(new ResourceUpdatedEvent<>("configmaps", ConfigMap.class, resource, resource));
		assertThat(this.registry).hasSingleObservationThat()
			.hasLowCardinalityKeyValue("type", "resync")
			.doesNotHaveLowCardinalityKeyValueWithKey("k8s.namespace.name")
			.hasHighCardinalityKeyValue("k8s.namespace.name", "team-a")
			.doesNotHaveError();
	}

	@Test
	void aConventionBeanReplacesTheDefault() {
		InformerEventObservationConvention custom = new DefaultInformerEventObservationConvention() {

			@Override
			public String getName() {
				return "orders.change";
			}

			@Override
			public KeyValues getHighCardinalityKeyValues(InformerEventContext context) {
				return KeyValues.of("object", context.getEvent().getName());
			}

		};
		this.publisher.setListenerScope(new ObservingListenerScope(this.registry, custom, (informer) -> true));
		this.publisher.publish(new ResourceAddedEvent<>("configmaps", ConfigMap.class,
				TestResources.configMap("team-a", "settings", "v")));
		assertThat(this.registry).hasSingleObservationThat()
			.hasNameEqualTo("orders.change")
			.hasHighCardinalityKeyValue("object", "settings")
			.doesNotHaveHighCardinalityKeyValueWithKey("name");
	}

	@Test
	void mdcKeysNameTheInformerAndTheObjectWhileListenersRunAndAreRestoredAfter() {
		this.publisher.setListenerScope(new MdcListenerScope());
		java.util.List<Map<String, String>> seen = new java.util.ArrayList<>();
		this.publisher.addListener((ApplicationListener<ResourceAddedEvent<?>>) (event) -> seen
			.add(Map.copyOf(org.slf4j.MDC.getCopyOfContextMap())));
		org.slf4j.MDC.put("informer", "outer");
		try {
			this.publisher.publish(new ResourceAddedEvent<>("configmaps", ConfigMap.class,
					TestResources.configMap("team-a", "settings", "v")));
			assertThat(seen).containsExactly(Map.of("informer", "configmaps", "informer.object", "team-a/settings"));
			assertThat(org.slf4j.MDC.get("informer")).isEqualTo("outer");
			assertThat(org.slf4j.MDC.get("informer.object")).isNull();
		}
		finally {
			org.slf4j.MDC.clear();
		}
	}

}
