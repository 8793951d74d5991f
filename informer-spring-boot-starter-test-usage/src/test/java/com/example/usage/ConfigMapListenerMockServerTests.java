package com.example.usage;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import dev.informer.test.InformerEvents;
import dev.informer.test.InformerTest;
import dev.informer.test.InformerTest.Server;

import static org.assertj.core.api.Assertions.assertThat;

@InformerTest(server = Server.MOCK)
class ConfigMapListenerMockServerTests {

	@Autowired
	KubernetesClient client;

	@Autowired
	InformerEvents events;

	@Autowired
	ConfigMapListener listener;

	@Test
	void listenerSeesNewConfigMap() {
		this.client.configMaps()
			.resource(new ConfigMapBuilder().withNewMetadata().withName("x").addToLabels("app", "web").endMetadata()
				.build())
			.create();
		assertThat(this.events).receivedAdded("configmaps", this.client.getNamespace(), "x");
		assertThat(this.listener.seen()).contains(this.client.getNamespace() + "/x");
	}

}
