package com.example.cloud;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import dev.informer.InformerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The informer starter in an application that also has Spring Cloud Kubernetes' fabric8
 * auto-configuration, started as {@code main} starts it (every auto-configuration on the
 * classpath), against fabric8's mock API server. In a cluster (cloud platform
 * {@code kubernetes}) Spring Cloud Kubernetes defines the application's only
 * {@code KubernetesClient}, configured by {@code spring.cloud.kubernetes.client.*}, and
 * the informers use it; outside one its auto-configuration is off and the starter creates
 * its own. Either way there is one client and the informers start.
 */
class InformersBesideSpringCloudKubernetesTests {

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

	@Test
	void inAClusterTheInformersUseSpringCloudKubernetesClient() {
		try (ConfigurableApplicationContext context = run("in-cluster", "--spring.main.cloud-platform=kubernetes",
				"--spring.cloud.kubernetes.client.master-url=" + admin.getMasterUrl(),
				"--spring.cloud.kubernetes.client.namespace=in-cluster")) {
			Map<String, KubernetesClient> clients = context.getBeansOfType(KubernetesClient.class);
			// Spring Cloud Kubernetes' Fabric8AutoConfiguration#kubernetesClient
			assertThat(clients).containsOnlyKeys("kubernetesClient");
			assertThat(clients.get("kubernetesClient").getNamespace()).isEqualTo("in-cluster");
			assertInformersStartAndDeliver(context, "in-cluster");
		}
	}

	@Test
	void outsideAClusterTheStarterCreatesTheClient(@TempDir Path home) {
		// fabric8's own configuration, as a kubeconfig would give it
		System.setProperty("kubeconfig", home.resolve("no-kubeconfig").toString());
		System.setProperty("kubernetes.master", admin.getMasterUrl().toString());
		try (ConfigurableApplicationContext context = run("outside", "--spring.main.cloud-platform=none")) {
			assertThat(context.getBeansOfType(KubernetesClient.class)).containsOnlyKeys("informerKubernetesClient");
			assertInformersStartAndDeliver(context, "outside");
		}
		finally {
			System.clearProperty("kubeconfig");
			System.clearProperty("kubernetes.master");
		}
	}

	private static void assertInformersStartAndDeliver(ConfigurableApplicationContext context, String namespace) {
		InformerRegistry informers = context.getBean(InformerRegistry.class);
		// startup waited for the initial list
		assertThat(informers.informer("configmaps").isSynced()).isTrue();
		admin.configMaps()
			.inNamespace(namespace)
			.resource(new ConfigMapBuilder().withNewMetadata().withName("settings").endMetadata().build())
			.create();
		await().untilAsserted(() -> assertThat(context.getBean(SeenConfigMaps.class).names()).contains("settings"));
	}

	private static ConfigurableApplicationContext run(String namespace, String... arguments) {
		SpringApplication application = new SpringApplication(CloudApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		String[] all = new String[arguments.length + 4];
		all[0] = "--informer.resources.configmaps.api-version=v1";
		all[1] = "--informer.resources.configmaps.kind=ConfigMap";
		all[2] = "--informer.resources.configmaps.namespaces=" + namespace;
		all[3] = "--spring.cloud.kubernetes.client.trust-certs=true";
		System.arraycopy(arguments, 0, all, 4, arguments.length);
		return application.run(all);
	}

	@SpringBootApplication
	static class CloudApplication {

		@Bean
		SeenConfigMaps seenConfigMaps() {
			return new SeenConfigMaps();
		}

	}

}
