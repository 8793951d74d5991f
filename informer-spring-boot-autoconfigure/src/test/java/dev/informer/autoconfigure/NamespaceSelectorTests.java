package dev.informer.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

import dev.informer.InvalidInformerDeclarationException;
import dev.informer.event.InformerNamespaceChangedEvent;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.endpoint.InformersEndpoint;
import dev.informer.health.InformersHealthContributor;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchHealthPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code namespace-selector} against fabric8's mock API server: how a bad declaration
 * fails, and namespaces joining and leaving the selection while the informer runs. The
 * real API server's behaviour (a label removed ends the namespace's match on the server)
 * is proven by {@code NamespaceSelectorIT}.
 */
class NamespaceSelectorTests {

	private static MockApiServer mock;

	private static KubernetesClient client;

	private final ApplicationContextRunner runner = InformerContexts.runner(() -> client)
		.withBean(RecordingListener.class)
		.withBean(NamespaceChanges.class);

	@BeforeAll
	static void startServer() {
		mock = MockApiServer.crud();
		client = mock.client();
	}

	@AfterAll
	static void stopServer() {
		mock.close();
	}

	@Test
	void namespaceSelectorWithNamespacesFailsNamingBoth() {
		this.runner
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=team-a",
					"informer.resources.configmaps.namespace-selector=tenant=acme")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOfSatisfying(InvalidInformerDeclarationException.class, (ex) -> {
						assertThat(ex.getProperty()).isEqualTo("namespace-selector");
						assertThat(ex.getValue()).isEqualTo("tenant=acme");
						assertThat(ex.getProblem()).contains("'namespaces' [team-a]");
						assertThat(ex.getAction()).contains("Remove 'namespaces'")
							.contains("remove 'namespace-selector'");
					});
			});
	}

	@Test
	void malformedNamespaceSelectorFails() {
		this.runner
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespace-selector=tenant in ()")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOfSatisfying(InvalidInformerDeclarationException.class, (ex) -> {
						assertThat(ex.getProperty()).isEqualTo("namespace-selector");
						assertThat(ex.getProblem()).contains("is not a valid label selector");
					});
			});
	}

	@Test
	void namespaceSelectorOnClusterScopedKindFails() {
		this.runner
			.withPropertyValues("informer.resources.nodes.api-version=v1", "informer.resources.nodes.kind=Node",
					"informer.resources.nodes.namespace-selector=tenant=acme")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOfSatisfying(InvalidInformerDeclarationException.class, (ex) -> {
						assertThat(ex.getProperty()).isEqualTo("namespace-selector");
						assertThat(ex.getProblem()).contains("Node is cluster-scoped");
					});
			});
	}

	@Test
	void namespacesJoinWhenTheyMatchAndLeaveWhenDeleted() {
		namespace("sel-a", Map.of("tenant", "acme"));
		namespace("sel-b", Map.of());
		create(TestResources.configMap("sel-a", "a1", "1"));
		create(TestResources.configMap("sel-b", "b1", "1"));
		this.runner
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespace-selector=tenant=acme")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RecordingListener listener = context.getBean(RecordingListener.class);
				NamespaceChanges changes = context.getBean(NamespaceChanges.class);
				DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
				// startup waited for the namespace that matched at startup
				assertThat(listener.events(InformerSyncedEvent.class)).singleElement()
					.extracting(InformerSyncedEvent::getCacheSize)
					.isEqualTo(1);
				assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getNamespace())
					.containsExactly("sel-a");
				assertThat(registry.informer("configmaps").getWatches()).extracting(Watch::getNamespace)
					.containsExactly("sel-a");
				// labelled: joins
				client.namespaces()
					.withName("sel-b")
					.edit((ns) -> new NamespaceBuilder(ns).editMetadata()
						.addToLabels("tenant", "acme")
						.endMetadata()
						.build());
				await().atMost(Duration.ofSeconds(10))
					.until(() -> listener
						.events(ResourceAddedEvent.class, (event) -> "sel-b".equals(event.getNamespace()))
						.size() == 1);
				assertThat(changes.events)
					.extracting(InformerNamespaceChangedEvent::getNamespace, InformerNamespaceChangedEvent::isJoined)
					.contains(org.assertj.core.groups.Tuple.tuple("sel-b", true));
				assertThat(registry.cache("configmaps", ConfigMap.class).list(("sel-b"))).hasSize(1);
				// deleted: leaves, with one delete flagged as having left the selection
				client.namespaces().withName("sel-a").delete();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> changes.events.stream()
						.anyMatch((event) -> event.getNamespace().equals("sel-a") && !event.isJoined()));
				List<ResourceDeletedEvent<?>> deleted = listener.resourceEvents()
					.stream()
					.filter(ResourceDeletedEvent.class::isInstance)
					.<ResourceDeletedEvent<?>>map((event) -> (ResourceDeletedEvent<?>) event)
					.toList();
				assertThat(deleted).singleElement().satisfies((event) -> {
					assertThat(event.getName()).isEqualTo("a1");
					assertThat(event.isLeftSelection()).isTrue();
					assertThat(event.isFinalStateUnknown()).isFalse();
				});
				assertThat(registry.cache("configmaps", ConfigMap.class).list())
					.extracting((cm) -> cm.getMetadata().getName())
					.containsExactly("b1");
				assertThat(registry.informer("configmaps").getWatches()).extracting(Watch::getNamespace)
					.containsExactly("sel-b");
			});
	}

	@Test
	void healthAndEndpointShowTheSelectorAndTheCurrentNamespaces() {
		this.runner
			.withPropertyValues("informer.resources.globex.api-version=v1", "informer.resources.globex.kind=ConfigMap",
					"informer.resources.globex.namespace-selector=tenant=globex")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
				WatchHealthPolicy policy = new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60));
				InformersHealthContributor health = new InformersHealthContributor(registry, policy, Clock.systemUTC());
				InformersEndpoint endpoint = new InformersEndpoint(registry, policy, Clock.systemUTC());
				// no namespace matches: the watch on
				// Namespaces alone, UP, naming the selector
				assertThat(health.getContributor("globex")).isInstanceOfSatisfying(CompositeHealthContributor.class,
						(composite) -> {
							assertThat(composite.stream().map((entry) -> entry.name()))
								.containsExactly(InformersHealthContributor.NAMESPACE_SELECTOR);
							Health result = ((HealthIndicator) composite
								.getContributor(InformersHealthContributor.NAMESPACE_SELECTOR)).health();
							assertThat(result.getStatus()).isEqualTo(Status.UP);
							assertThat(result.getDetails()).containsEntry("namespaceSelector", "tenant=globex")
								.containsEntry("namespaces", List.of());
						});
				assertThat(endpoint.informers().informers().get("globex").declaration())
					.containsEntry("namespaceSelector", "tenant=globex")
					.containsEntry("selectedNamespaces", List.of());
				namespace("hz-a", Map.of("tenant", "globex"));
				await().atMost(Duration.ofSeconds(10))
					.until(() -> registry.informer("globex").isSynced()
							&& !registry.informer("globex").getWatches().isEmpty());
				assertThat(health.getContributor("globex")).isInstanceOfSatisfying(CompositeHealthContributor.class,
						(composite) -> assertThat(composite.getContributor("hz-a")).isInstanceOfSatisfying(
								HealthIndicator.class,
								(indicator) -> assertThat(indicator.health().getDetails())
									.containsEntry("namespace", "hz-a")
									.containsEntry("namespaceSelector", "tenant=globex")));
				assertThat(endpoint.informers().informers().get("globex").declaration())
					.containsEntry("selectedNamespaces", List.of("hz-a"));
			});
	}

	private static void namespace(String name, Map<String, String> labels) {
		client.namespaces()
			.resource(new NamespaceBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata().build())
			.create();
	}

	private static void create(ConfigMap configMap) {
		client.configMaps().resource(configMap).create();
	}

	static class NamespaceChanges {

		final List<InformerNamespaceChangedEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void on(InformerNamespaceChangedEvent event) {
			this.events.add(event);
		}

	}

}
