package com.example.cloud;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
 * classpath), connected through a kubeconfig as a developer's machine or a pod is. In a
 * cluster (cloud platform {@code kubernetes}) Spring Cloud Kubernetes defines the
 * application's only {@code KubernetesClient}, configured by
 * {@code spring.cloud.kubernetes.client.*}, and the informers use it; outside one its
 * auto-configuration is off and the starter creates its own. Either way there is one
 * client and the informers start. Subclasses choose the API server.
 */
abstract class SpringCloudKubernetesScenario {

	@TempDir
	Path home;

	/**
	 * Return a client with full access to the server, owned by the subclass.
	 */
	abstract KubernetesClient admin();

	/**
	 * Return a kubeconfig for the server.
	 */
	abstract String kubeconfig();

	@BeforeEach
	void pointTheKubeconfigAtTheServer() throws IOException {
		// fabric8 reads it where Spring Cloud
		// Kubernetes and the starter both build clients
		System.setProperty("kubeconfig", Files.writeString(this.home.resolve("kubeconfig"), kubeconfig()).toString());
	}

	@AfterEach
	void clearTheKubeconfig() {
		System.clearProperty("kubeconfig");
	}

	@Test
	void inAClusterTheInformersUseSpringCloudKubernetesClient() {
		try (ConfigurableApplicationContext context = run("in-cluster", "--spring.main.cloud-platform=kubernetes",
				"--spring.cloud.kubernetes.client.namespace=in-cluster")) {
			Map<String, KubernetesClient> clients = context.getBeansOfType(KubernetesClient.class);
			// Spring Cloud Kubernetes' Fabric8AutoConfiguration#kubernetesClient,
			// with its properties applied
			assertThat(clients).containsOnlyKeys("kubernetesClient");
			assertThat(clients.get("kubernetesClient").getNamespace()).isEqualTo("in-cluster");
			assertInformersStartAndDeliver(context, "in-cluster");
		}
	}

	@Test
	void outsideAClusterTheStarterCreatesTheClient() {
		try (ConfigurableApplicationContext context = run("outside", "--spring.main.cloud-platform=none")) {
			assertThat(context.getBeansOfType(KubernetesClient.class)).containsOnlyKeys("informerKubernetesClient");
			assertInformersStartAndDeliver(context, "outside");
		}
	}

	private void assertInformersStartAndDeliver(ConfigurableApplicationContext context, String namespace) {
		InformerRegistry informers = context.getBean(InformerRegistry.class);
		// startup waited for the initial list
		assertThat(informers.informer("configmaps").isSynced()).isTrue();
		admin().namespaces()
			.resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
			.createOr(NonDeletingOperation::update);
		admin().configMaps()
			.inNamespace(namespace)
			.resource(new ConfigMapBuilder().withNewMetadata().withName("settings").endMetadata().build())
			.createOr(NonDeletingOperation::update);
		await().untilAsserted(() -> assertThat(context.getBean(SeenConfigMaps.class).names()).contains("settings"));
	}

	private static ConfigurableApplicationContext run(String namespace, String... arguments) {
		SpringApplication application = new SpringApplication(CloudApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		String[] all = new String[arguments.length + 3];
		all[0] = "--informer.resources.configmaps.api-version=v1";
		all[1] = "--informer.resources.configmaps.kind=ConfigMap";
		all[2] = "--informer.resources.configmaps.namespaces=" + namespace;
		System.arraycopy(arguments, 0, all, 3, arguments.length);
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
