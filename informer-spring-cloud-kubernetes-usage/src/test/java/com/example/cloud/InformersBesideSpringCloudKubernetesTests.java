package com.example.cloud;

import java.util.HashMap;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The starter beside Spring Cloud Kubernetes on fabric8's mock API server in CRUD mode.
 */
class InformersBesideSpringCloudKubernetesTests extends SpringCloudKubernetesScenario {

	private static KubernetesMockServer server;

	private static KubernetesClient admin;

	@BeforeAll
	@SuppressWarnings("deprecation") // fabric8's mock server extension builds its Context
										// the same way
	static void startServer() {
		server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), new HashMap<>(),
				new KubernetesMixedDispatcher(new HashMap<>()), false);
		server.init();
		admin = server.createClient();
	}

	@AfterAll
	static void stopServer() {
		admin.close();
		try {
			server.destroy();
		}
		catch (IllegalStateException ex) {
			// Vert.x waits for WebSocket close answers that never come; nothing to keep
		}
	}

	@Override
	KubernetesClient admin() {
		return admin;
	}

	@Override
	String kubeconfig() {
		return """
				apiVersion: v1
				kind: Config
				clusters:
				  - name: mock
				    cluster:
				      server: %s
				users:
				  - name: mock
				    user: {}
				contexts:
				  - name: mock
				    context:
				      cluster: mock
				      user: mock
				      namespace: default
				current-context: mock
				""".formatted(admin.getMasterUrl());
	}

}
