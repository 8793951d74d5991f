package dev.informer.test.slice;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
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

/**
 * {@code @ServiceConnection} on a K3s container, for machines with Docker. Disabled
 * (reported as skipped) where no Docker engine runs.
 */
@InformerTest
@Testcontainers(disabledWithoutDocker = true)
class K3sServiceConnectionTests {

	@Container
	@ServiceConnection
	static K3sContainer k3s = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.33.4-k3s1"));

	@Autowired
	KubernetesClient client;

	@Autowired
	InformerEvents events;

	@Test
	void informersWatchK3s() {
		assertThat(this.client.getMasterUrl().toString())
			.startsWith(Config.fromKubeconfig(k3s.getKubeConfigYaml()).getMasterUrl());
		this.client.configMaps()
			.resource(new ConfigMapBuilder().withNewMetadata().withName("k3s").endMetadata().build())
			.create();
		assertThat(this.events).receivedAdded("configmaps", this.client.getNamespace(), "k3s");
	}

}
