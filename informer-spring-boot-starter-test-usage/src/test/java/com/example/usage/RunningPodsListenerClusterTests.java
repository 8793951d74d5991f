package com.example.usage;

import java.time.Duration;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import dev.informer.test.InformerTest;
import dev.informer.test.InformerTest.Server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@RequiresRealServer(binaries = { "kube-apiserver", "etcd", "kube-controller-manager", "kube-scheduler", "kwok" })
@InformerTest(server = Server.CLUSTER, properties = { "informer.resources.pods.api-version=v1",
		"informer.resources.pods.kind=Pod", "informer.resources.pods.namespaces=${informer.test.namespace}" })
class RunningPodsListenerClusterTests {

	@Autowired
	KubernetesClient client;

	@Autowired
	RunningPodsListener listener;

	@Test
	void listenerFollowsThePodsOfADeploymentAsTheyRunAndGo() {
		Deployment workers = new DeploymentBuilder().withNewMetadata()
			.withName("workers")
			.endMetadata()
			.withNewSpec()
			.withReplicas(3)
			.withNewSelector()
			.addToMatchLabels("app", "workers")
			.endSelector()
			.withNewTemplate()
			.withNewMetadata()
			.addToLabels("app", "workers")
			.endMetadata()
			.withNewSpec()
			.addNewContainer()
			.withName("worker")
			.withImage("example.com/worker:1")
			.endContainer()
			.endSpec()
			.endTemplate()
			.endSpec()
			.build();
		this.client.apps().deployments().resource(workers).create();
		// the controllers create the Pods, the scheduler binds them, kwok runs them
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(this.listener.running()).hasSize(3));

		this.client.apps().deployments().withName("workers").scale(1);
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(this.listener.running()).hasSize(1));
	}

}
