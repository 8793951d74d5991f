package dev.informer.it;

import java.time.Duration;
import java.util.Map;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.test.InformerContexts;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The core scenarios against a k3s cluster, for machines with Docker. Disabled (reported
 * as skipped) where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class K3sIT {

	@Container
	static final K3sContainer k3s = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.33.4-k3s1"));

	private static KubernetesClient client;

	@BeforeAll
	static void connect() {
		client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(k3s.getKubeConfigYaml())).build();
		TestResources.createNamespaces(client, "k3s-it");
		TestResources.applyCrd(client, "widgets", "Widget");
	}

	@AfterAll
	static void close() {
		if (client != null) {
			client.close();
		}
	}

	@Test
	void eventsCustomResourcesAndSelectors() {
		InformerContexts.runner(() -> client)
			.withBean(RecordingListener.class)
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=k3s-it",
					"informer.resources.configmaps.label-selector=app in (web)",
					"informer.resources.widgets.api-version=example.com/v1", "informer.resources.widgets.kind=Widget")
			.run((context) -> {
				RecordingListener listener = context.getBean(RecordingListener.class);
				client.configMaps()
					.resource(TestResources.configMap("k3s-it", "db", Map.of("app", "db"), "x"))
					.create();
				client.configMaps()
					.resource(TestResources.configMap("k3s-it", "web", Map.of("app", "web"), "x"))
					.create();
				client.genericKubernetesResources("example.com/v1", "Widget")
					.resource(TestResources.widget("k3s-it", "w", "green"))
					.create();
				client.configMaps().inNamespace("k3s-it").withName("web").delete();
				await().atMost(Duration.ofSeconds(60))
					.until(() -> listener.events(ResourceDeletedEvent.class).size() == 1
							&& listener.events(ResourceAddedEvent.class).size() == 2);
				assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
					.containsExactlyInAnyOrder("web", "w");
			});
	}

}
