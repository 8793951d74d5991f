package dev.informer.test.boot;

import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import dev.informer.test.AutoConfigureInformerTest;
import dev.informer.test.InformerEvents;
import dev.informer.test.InformerEvents.Change;
import dev.informer.test.InformerTest.Server;
import dev.informer.test.RequiresRealServer;
import dev.informer.test.slice.PlainService;
import dev.informer.test.slice.SliceTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A full {@code @SpringBootTest} with {@link AutoConfigureInformerTest} on the real
 * kube-apiserver: the test namespace exists there and the changes of an object arrive in
 * order.
 */
@RequiresRealServer
@SpringBootTest(classes = SliceTestApplication.class)
@AutoConfigureInformerTest(server = Server.REAL)
class AutoConfigureInformerTestRealServerTests {

	@Autowired
	ApplicationContext context;

	@Autowired
	KubernetesClient client;

	@Autowired
	InformerEvents events;

	@Test
	void theTestNamespaceExistsOnTheServer() {
		assertThat(this.context.getBeansOfType(PlainService.class)).hasSize(1);
		assertThat(this.client.namespaces().withName(this.client.getNamespace()).get()).isNotNull();
	}

	@Test
	void theChangesOfAnObjectArriveInOrder() {
		this.client.configMaps()
			.resource(new ConfigMapBuilder().withNewMetadata().withName("boot-ordered").endMetadata().build())
			.create();
		this.client.configMaps().withName("boot-ordered").edit((configMap) -> {
			configMap.setData(Map.of("k", "v"));
			return configMap;
		});
		this.client.configMaps().withName("boot-ordered").delete();
		assertThat(this.events).receivedExactly("configmaps", this.client.getNamespace(), "boot-ordered", Change.ADDED,
				Change.UPDATED, Change.DELETED);
	}

}
