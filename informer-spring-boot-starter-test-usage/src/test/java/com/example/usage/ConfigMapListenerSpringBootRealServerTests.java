package com.example.usage;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.informer.test.AutoConfigureInformerTest;
import dev.informer.test.InformerEvents;
import dev.informer.test.InformerTest.Server;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole application in a {@code @SpringBootTest}, on the real kube-apiserver that
 * {@link AutoConfigureInformerTest} starts, with its {@link InformerEvents}.
 */
@RequiresRealServer
@SpringBootTest
@AutoConfigureInformerTest(server = Server.REAL)
class ConfigMapListenerSpringBootRealServerTests {

	@Autowired
	KubernetesClient client;

	@Autowired
	InformerEvents events;

	@Autowired
	ConfigMapListener listener;

	@Autowired
	GreetingService greetings;

	@Test
	void theApplicationsListenerSeesANewConfigMap() {
		this.client.configMaps()
			.resource(new ConfigMapBuilder().withNewMetadata().withName("boot").addToLabels("app", "web").endMetadata().build())
			.create();
		assertThat(this.events).receivedAdded("configmaps", this.client.getNamespace(), "boot");
		assertThat(this.listener.seen()).contains(this.client.getNamespace() + "/boot");
		assertThat(this.greetings.greet("informers")).isEqualTo("Hello informers");
	}

}
