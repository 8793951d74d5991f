package com.example.usage;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

import dev.informer.test.InformerEvents;
import dev.informer.test.InformerTest;

import static org.assertj.core.api.Assertions.assertThat;

@InformerTest
@Testcontainers(disabledWithoutDocker = true)
class ConfigMapListenerK3sTests {

	@Container
	@ServiceConnection
	static K3sContainer k3s = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.33.4-k3s1"));

	@Autowired
	KubernetesClient client;

	@Autowired
	InformerEvents events;

	@Autowired
	ConfigMapListener listener;

	@Test
	void listenerSeesNewConfigMap() {
		this.client.configMaps()
			.resource(new ConfigMapBuilder().withNewMetadata().withName("x").addToLabels("app", "web").endMetadata().build())
			.create();
		assertThat(this.events).receivedAdded("configmaps", this.client.getNamespace(), "x");
		assertThat(this.listener.seen()).contains(this.client.getNamespace() + "/x");
	}

}
