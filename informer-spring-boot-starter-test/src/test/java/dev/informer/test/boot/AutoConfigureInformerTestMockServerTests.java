package dev.informer.test.boot;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import dev.informer.autoconfigure.KubernetesConnectionDetails;
import dev.informer.test.AutoConfigureInformerTest;
import dev.informer.test.InformerEvents;
import dev.informer.test.InformerTest.Server;
import dev.informer.test.slice.ConfigMapNames;
import dev.informer.test.slice.PlainService;
import dev.informer.test.slice.SliceTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A full {@code @SpringBootTest} with {@link AutoConfigureInformerTest}, on the mock
 * server: every component of the application, and the test server, namespace and
 * {@link InformerEvents} of {@code @InformerTest}.
 */
@SpringBootTest(classes = SliceTestApplication.class)
@AutoConfigureInformerTest(server = Server.MOCK)
class AutoConfigureInformerTestMockServerTests {

	@Autowired
	ApplicationContext context;

	@Autowired
	KubernetesClient client;

	@Autowired
	InformerEvents events;

	@Test
	void theWholeApplicationTalksToTheTestServer() {
		assertThat(this.context.getBeansOfType(PlainService.class)).hasSize(1);
		assertThat(this.context.getBean(KubernetesConnectionDetails.class).getClass().getSimpleName())
			.isEqualTo("MockApiServer");
		assertThat(this.client.getNamespace()).startsWith("informer-test-");
		// the starter's own client backed off for the test's
		assertThat(this.context.containsBean("informerKubernetesClient")).isFalse();
		assertThat(this.context.getBean("informerTestKubernetesClient")).isSameAs(this.client);
	}

	@Test
	void informerEventsRecordWhatTheListenersReceive() {
		this.client.configMaps()
			.resource(new ConfigMapBuilder().withNewMetadata().withName("boot").endMetadata().build())
			.create();
		assertThat(this.events).receivedAdded("configmaps", this.client.getNamespace(), "boot");
		assertThat(this.context.getBean(ConfigMapNames.class).names()).contains("boot");
	}

}
