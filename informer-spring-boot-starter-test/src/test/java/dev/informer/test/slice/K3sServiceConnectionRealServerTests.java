package dev.informer.test.slice;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.testcontainers.k3s.K3sContainer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

import dev.informer.autoconfigure.KubernetesConnectionDetails;
import dev.informer.test.InformerEvents;
import dev.informer.test.InformerTest.Server;
import dev.informer.test.InformerTest;
import dev.informer.test.RealServerK3sContainer;
import dev.informer.test.RequiresRealServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @ServiceConnection} on a {@link K3sContainer} without Docker: the container's
 * kubeconfig points at the real kube-apiserver, and the test asks for the mock server, so
 * only the service connection can have led the informers to the real one.
 */
@RequiresRealServer
@InformerTest(server = Server.MOCK)
class K3sServiceConnectionRealServerTests {

	@ServiceConnection
	static K3sContainer k3s = new RealServerK3sContainer();

	@Autowired
	KubernetesConnectionDetails connectionDetails;

	@Autowired
	KubernetesClient client;

	@Autowired
	InformerEvents events;

	@Test
	void informersUseTheContainersKubeconfig() {
		assertThat(this.connectionDetails.getClass().getSimpleName()).isEqualTo("K3sContainerConnectionDetails");
		assertThat(this.client.getMasterUrl().toString())
			.startsWith(Config.fromKubeconfig(k3s.getKubeConfigYaml()).getMasterUrl());
		this.client.configMaps()
			.resource(new ConfigMapBuilder().withNewMetadata().withName("k3s").endMetadata().build())
			.create();
		assertThat(this.events).receivedAdded("configmaps", this.client.getNamespace(), "k3s");
	}

}
