package com.example.usage;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import dev.informer.test.InformerEvents;
import dev.informer.test.InformerTest;
import dev.informer.test.InformerTest.Server;

import static org.assertj.core.api.Assertions.assertThat;

@RequiresRealServer
@InformerTest(server = Server.REAL)
class ConfigMapListenerRealServerTests {

	@Autowired
	KubernetesClient client;

	@Autowired
	InformerEvents events;

	@Autowired
	ConfigMapListener listener;

	/**
	 * The API server evaluates the label selector: a ConfigMap labelled legacy, created
	 * first, is never delivered. Events of a namespace arrive in order, so once the later
	 * one has arrived, the earlier one would have.
	 */
	@Test
	void listenerSeesNewConfigMapAndNotOneOutsideTheSelector() {
		this.client.configMaps()
			.resource(new ConfigMapBuilder().withNewMetadata()
				.withName("old")
				.addToLabels("app", "web")
				.addToLabels("legacy", "true")
				.endMetadata()
				.build())
			.create();
		this.client.configMaps()
			.resource(new ConfigMapBuilder().withNewMetadata().withName("x").addToLabels("app", "web").endMetadata()
				.build())
			.create();
		assertThat(this.events).receivedAdded("configmaps", this.client.getNamespace(), "x");
		assertThat(this.listener.seen()).contains(this.client.getNamespace() + "/x")
			.doesNotContain(this.client.getNamespace() + "/old");
	}

}
