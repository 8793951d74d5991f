package dev.informer.test.slice;

import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import dev.informer.test.InformerEvents;
import dev.informer.test.InformerEvents.Change;
import dev.informer.test.InformerTest;
import dev.informer.test.InformerTest.Server;
import dev.informer.test.RequiresRealServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The slice on the real kube-apiserver: a namespace that exists on the server, and the
 * changes of an object in order.
 */
@RequiresRealServer
@InformerTest(server = Server.REAL)
class InformerTestRealServerTests {

	@Autowired
	KubernetesClient client;

	@Autowired
	InformerEvents events;

	@Test
	void createsTheTestNamespace() {
		assertThat(this.client.namespaces().withName(this.client.getNamespace()).get()).isNotNull();
	}

	@Test
	void reportsTheChangesOfAnObjectInOrder() {
		this.client.configMaps()
			.resource(new ConfigMapBuilder().withNewMetadata().withName("ordered").endMetadata().build())
			.create();
		this.client.configMaps().withName("ordered").edit((configMap) -> {
			configMap.setData(Map.of("k", "v"));
			return configMap;
		});
		this.client.configMaps().withName("ordered").delete();
		assertThat(this.events).receivedExactly("configmaps", this.client.getNamespace(), "ordered", Change.ADDED,
				Change.UPDATED, Change.DELETED);
	}

}
