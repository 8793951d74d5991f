package dev.informer.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.InformerStartupException;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.endpoint.InformersEndpoint;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.health.InformersHealthContributor;
import dev.informer.metrics.InformerMetrics;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.WatchHealthPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The shared watch on Namespaces of a {@code namespace-selector} as a watch like any
 * other, on fabric8's CRUD mock server: a health component, meters, and the startup rule
 * for {@code fail-on-forbidden} (a forbidden Namespace watch fails startup naming the
 * rule; a namespace that matches before its RoleBinding exists does not). Its recovery
 * and a revoked {@code list namespaces} are proven on the real API server by
 * {@code NamespaceSelectionWatchIT}.
 */
class NamespaceSelectionWatchTests {

	private MockApiServer mock;

	@BeforeEach
	void startServer() {
		this.mock = MockApiServer.crud();
	}

	@AfterEach
	void stopServer() {
		this.mock.close();
	}

	private ApplicationContextRunner runner() {
		return InformerContexts.runner(() -> this.mock.client())
			.withBean(RecordingListener.class)
			.withPropertyValues("informer.resources.tenants.api-version=v1",
					"informer.resources.tenants.kind=ConfigMap",
					"informer.resources.tenants.namespace-selector=tenant=acme");
	}

	@Test
	void theNamespaceWatchHasAHealthComponentAndMetersOfItsOwn() {
		namespace("nsw-a");
		this.runner().run((context) -> {
			assertThat(context).hasNotFailed();
			DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
			HealthIndicator selection = selectionHealth(registry);
			await().atMost(Duration.ofSeconds(10)).until(() -> {
				registry.informer("tenants").sampleWatches();
				return selection.health().getStatus().equals(Status.UP)
						&& Boolean.TRUE.equals(selection.health().getDetails().get("watching"));
			});
			Health health = selection.health();
			assertThat(health.getDetails()).containsEntry("namespaceSelector", "tenant=acme")
				.containsEntry("kind", "Namespace")
				.containsEntry("synced", true)
				.containsEntry("namespaces", List.of("nsw-a"))
				.containsEntry("reconnects", 0L);
			// the endpoint shows it too, and counts it in the informer's status
			InformersEndpoint endpoint = new InformersEndpoint(registry,
					new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60)), Clock.systemUTC());
			assertThat(endpoint.informers().informers().get("tenants").namespaceSelection())
				.containsEntry("status", "UP")
				.containsEntry("kind", "Namespace")
				.containsEntry("namespaceSelector", "tenant=acme")
				.containsEntry("namespaces", List.of("nsw-a"))
				.containsEntry("watching", true);
			SimpleMeterRegistry meters = new SimpleMeterRegistry();
			new InformerMetrics(registry).bindTo(meters);
			assertThat(meters.get("informer.namespace.selection.watching")
				.tag("informer", "tenants")
				.tag("selector", "tenant=acme")
				.gauge()
				.value()).isEqualTo(1.0);
			assertThat(meters.get("informer.namespace.selection.namespaces").tag("informer", "tenants").gauge().value())
				.isEqualTo(1.0);
			assertThat(meters.get("informer.namespace.selection.reconnects")
				.tag("informer", "tenants")
				.functionCounter()
				.count()).isZero();
			assertThat(meters.get("informer.namespace.selection.relists")
				.tag("informer", "tenants")
				.tag("reason", "stalled")
				.functionCounter()
				.count()).isZero();
		});
	}

	@Test
	void aNamespaceWatchTheServerKeepsClosingIsReplacedSoThatNamespacesStillJoin() {
		namespace("nsw-flap");
		Namespace flap = this.mock.client().namespaces().withName("nsw-flap").get();
		// a server that ends every watch on these Namespaces at once: fabric8 re-watches
		// from the same resourceVersion (about once a second here) forever and never sees
		// a namespace labelled later; the window is long enough to hold three losses
		this.mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces?allowWatchBookmarks=true&labelSelector=tenant%3Dacme&resourceVersion="
					+ flap.getMetadata().getResourceVersion() + "&timeoutSeconds=600&watch=true")
			.andUpgradeToWebSocket()
			.open()
			.waitFor(100)
			.andEmit(new WatchEvent(flap, "MODIFIED"))
			.done()
			.always();
		this.runner().withPropertyValues("informer.reliability.watch-availability-window=20s").run((context) -> {
			assertThat(context).hasNotFailed();
			RecordingListener listener = context.getBean(RecordingListener.class);
			DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
			this.mock.client().configMaps().resource(TestResources.configMap("nsw-new", "new", "1")).create();
			namespace("nsw-new");
			// the replacement lists the Namespaces: the one labelled meanwhile joins
			await().atMost(Duration.ofSeconds(60))
				.until(() -> listener.events(ResourceAddedEvent.class, (event) -> "new".equals(event.getName()))
					.size() == 1);
			assertThat(selectionHealth(registry).health().getDetails().get("relists")).asString().contains("flapping");
		});
	}

	@Test
	void aForbiddenNamespaceWatchFailsStartupNamingTheSelectorAndTheRule() {
		this.mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces?labelSelector=tenant%3Dacme&resourceVersion=0")
			.andReturn(403, new StatusBuilder().withCode(403)
				.withReason("Forbidden")
				.withMessage("namespaces is forbidden: User \"app\" cannot list resource \"namespaces\" in API group "
						+ "\"\" at the cluster scope")
				.build())
			.always();
		this.runner().run((context) -> {
			InformerStartupException failure = startupFailure(context);
			assertThat(failure)
				.hasMessageContaining(
						"Informer 'tenants' is forbidden to list namespaces (its namespace-selector 'tenant=acme')")
				.hasMessageContaining("HTTP 403");
			assertThat(failure.getAction()).contains("ClusterRole", "resources: [namespaces]", "verbs: [list, watch]");
		});
	}

	@Test
	void aNamespaceThatMatchesBeforeItsRoleBindingExistsDoesNotFailStartupAndJoinsOnceAllowed() {
		namespace("nsw-ok");
		namespace("nsw-late");
		this.mock.client().configMaps().resource(TestResources.configMap("nsw-ok", "ok", "1")).create();
		this.mock.client().configMaps().resource(TestResources.configMap("nsw-late", "late", "1")).create();
		// the RoleBinding of nsw-late is not there
		// yet (fail-on-forbidden is on, the default)
		this.mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces/nsw-late/configmaps?resourceVersion=0")
			.andReturn(403, new StatusBuilder().withCode(403)
				.withReason("Forbidden")
				.withMessage("configmaps is forbidden: User \"app\" cannot list resource \"configmaps\" in API group "
						+ "\"\" in the namespace \"nsw-late\"")
				.build())
			.always();
		this.runner().run((context) -> {
			assertThat(context).hasNotFailed();
			RecordingListener listener = context.getBean(RecordingListener.class);
			DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
			assertThat(listener.events(InformerSyncedEvent.class)).hasSize(1);
			assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
				.containsExactly("ok");
			HealthContributor late = ((CompositeHealthContributor) health(registry).getContributor("tenants"))
				.getContributor("nsw-late");
			Health denied = ((HealthIndicator) late).health();
			assertThat(denied.getStatus()).isNotEqualTo(Status.UP);
			assertThat(denied.getDetails()).containsEntry("reason", "Forbidden").containsEntry("namespace", "nsw-late");
			// the RoleBinding appears: the namespace's list, retried, succeeds
			this.mock.withdrawExpectations();
			await().atMost(Duration.ofSeconds(30))
				.until(() -> listener.events(ResourceAddedEvent.class, (event) -> "late".equals(event.getName()))
					.size() == 1);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> ((HealthIndicator) late).health().getStatus().equals(Status.UP));
		});
	}

	private static InformersHealthContributor health(DefaultInformerRegistry registry) {
		return new InformersHealthContributor(registry,
				new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60)), Clock.systemUTC());
	}

	private static HealthIndicator selectionHealth(DefaultInformerRegistry registry) {
		HealthContributor tenants = health(registry).getContributor("tenants");
		assertThat(tenants).isInstanceOf(CompositeHealthContributor.class);
		HealthContributor selection = ((CompositeHealthContributor) tenants).getContributor("namespaceSelector");
		assertThat(selection).as("the health component of the Namespace watch").isInstanceOf(HealthIndicator.class);
		return (HealthIndicator) selection;
	}

	private static InformerStartupException startupFailure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		for (Throwable current = context.getStartupFailure(); current != null; current = current.getCause()) {
			if (current instanceof InformerStartupException startup) {
				return startup;
			}
		}
		throw new AssertionError("Not a startup failure: " + context.getStartupFailure(), context.getStartupFailure());
	}

	private void namespace(String name) {
		this.mock.client()
			.namespaces()
			.resource(new NamespaceBuilder().withNewMetadata()
				.withName(name)
				.withLabels(Map.of("tenant", "acme"))
				.endMetadata()
				.build())
			.create();
	}

}
