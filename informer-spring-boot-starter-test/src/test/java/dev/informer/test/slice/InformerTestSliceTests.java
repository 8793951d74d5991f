package dev.informer.test.slice;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationContext;

import dev.informer.test.InformerEvents;
import dev.informer.test.InformerTest;
import dev.informer.test.InformerTest.Server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What {@link InformerTest @InformerTest} puts in the context, on the mock server.
 */
@InformerTest(server = Server.MOCK)
class InformerTestSliceTests {

	@Autowired
	ApplicationContext context;

	@Autowired
	KubernetesClient client;

	@Autowired
	InformerEvents events;

	@Value("${informer.test.namespace}")
	String namespace;

	@Test
	void includesListenersButNotOtherComponents() {
		assertThat(this.context.getBeansOfType(ConfigMapNames.class)).hasSize(1);
		assertThat(this.context.getBeansOfType(PlainService.class)).isEmpty();
	}

	@Test
	void clientDefaultsToTheTestNamespace() {
		assertThat(this.namespace).startsWith("informer-test-");
		assertThat(this.client.getNamespace()).isEqualTo(this.namespace);
	}

	@Test
	void informersWatchTheTestNamespaceAndReachListeners() {
		this.client.configMaps()
			.resource(new ConfigMapBuilder().withNewMetadata().withName("slice").endMetadata().build())
			.create();
		assertThat(this.events).receivedAdded("configmaps", this.namespace, "slice");
		assertThat(this.context.getBean(ConfigMapNames.class).names()).contains("slice");
	}

	@Test
	void contributesHealthWithActuatorOnTheClassPath() {
		assertThat(this.context.containsBean("informersHealthContributor")).isTrue();
	}

	@Test
	void bindsMetricsWithMicrometerOnTheClassPath() {
		MeterRegistry registry = this.context.getBean(MeterRegistry.class);
		await().untilAsserted(() -> assertThat(registry.find("informer.events").meters()).isNotEmpty());
	}

}
