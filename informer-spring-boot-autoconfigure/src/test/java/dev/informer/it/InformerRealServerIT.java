package dev.informer.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.Gadget;
import dev.informer.test.InformerContexts;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The starter against a real kube-apiserver and etcd: the semantics the mock server does
 * not have (server-side selectors, paging, resume from a resourceVersion, RBAC, CRD
 * discovery).
 */
class InformerRealServerIT {

	private static RealApiServer server;

	private static KubernetesClient admin;

	@BeforeAll
	static void startServer() {
		server = RealApiServer.get();
		admin = server.adminClient();
		TestResources.createNamespaces(admin, "it-a", "it-b", "it-sel", "it-page", "it-cut", "it-rbac", "it-crd");
		TestResources.applyCrd(admin, "widgets", "Widget");
		TestResources.applyCrd(admin, "gadgets", "Gadget");
	}

	@AfterAll
	static void closeClient() {
		if (admin != null) {
			admin.close();
		}
	}

	private ApplicationContextRunner runner(KubernetesClient client) {
		return InformerContexts.runner(() -> client).withBean(RecordingListener.class);
	}

	@Test
	void changesInTwoNamespacesArriveAsTypedEventsInOrder() {
		admin.configMaps().resource(TestResources.configMap("it-a", "existing", "0")).create();
		this.runner(admin).withPropertyValues(configMaps("it-a,it-b")).run((context) -> {
			RecordingListener listener = context.getBean(RecordingListener.class);
			assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
				.containsExactly("existing");
			admin.configMaps().resource(TestResources.configMap("it-b", "app", "1")).create();
			admin.configMaps().inNamespace("it-b").withName("app").edit((cm) -> {
				cm.getData().put("value", "2");
				return cm;
			});
			admin.configMaps().inNamespace("it-b").withName("app").delete();
			admin.configMaps().inNamespace("it-a").withName("existing").delete();
			await().atMost(Duration.ofSeconds(30)).until(() -> listener.events(ResourceDeletedEvent.class).size() == 2);
			List<ResourceEvent<?>> app = listener.resourceEvents()
				.stream()
				.filter((event) -> "app".equals(event.getName()))
				.toList();
			assertThat(app).extracting((event) -> event.getClass().getSimpleName())
				.containsExactly("ResourceAddedEvent", "ResourceUpdatedEvent", "ResourceDeletedEvent");
			assertThat(app).extracting((event) -> Long.parseLong(event.getResourceVersion())).isSorted();
			ResourceUpdatedEvent<?> updated = (ResourceUpdatedEvent<?>) app.get(1);
			assertThat(((ConfigMap) updated.getOldResource()).getData()).containsEntry("value", "1");
			assertThat(((ConfigMap) updated.getResource()).getData()).containsEntry("value", "2");
			assertThat(listener.events(ResourceDeletedEvent.class)).noneMatch((event) -> event.isFinalStateUnknown());
			assertThat(context.getBean(DefaultInformerRegistry.class).cache("configmaps", ConfigMap.class).size())
				.isZero();
		});
	}

	@Test
	void customResourcesArriveAsGenericAndTypedResources() {
		this.runner(admin)
			.withPropertyValues("informer.resources.widgets.api-version=example.com/v1",
					"informer.resources.widgets.kind=Widget", "informer.resources.widgets.namespaces=it-crd",
					"informer.resources.gadgets.api-version=example.com/v1", "informer.resources.gadgets.kind=Gadget",
					"informer.resources.gadgets.type=" + Gadget.class.getName(),
					"informer.resources.gadgets.namespaces=it-crd")
			.run((context) -> {
				RecordingListener listener = context.getBean(RecordingListener.class);
				admin.genericKubernetesResources("example.com/v1", "Widget")
					.resource(TestResources.widget("it-crd", "w1", "red"))
					.create();
				Gadget gadget = new Gadget();
				gadget.getMetadata().setName("g1");
				gadget.getMetadata().setNamespace("it-crd");
				gadget.setSpec(new Gadget.Spec());
				gadget.getSpec().setSize("small");
				admin.resources(Gadget.class).resource(gadget).create();
				await().atMost(Duration.ofSeconds(30))
					.until(() -> listener.events(ResourceAddedEvent.class).size() == 2);
				assertThat(listener.events(ResourceAddedEvent.class)).anySatisfy((event) -> {
					assertThat(event.getInformerName()).isEqualTo("widgets");
					assertThat(((GenericKubernetesResource) event.getResource()).<String>get("spec", "color"))
						.isEqualTo("red");
				}).anySatisfy((event) -> {
					assertThat(event.getInformerName()).isEqualTo("gadgets");
					assertThat(((Gadget) event.getResource()).getSpec().getSize()).isEqualTo("small");
				});
			});
	}

	@Test
	void labelAndFieldSelectorsAreAppliedByTheServer() {
		this.runner(admin)
			.withPropertyValues(configMaps("it-sel"))
			.withPropertyValues("informer.resources.configmaps.label-selector=app in (web,api),!legacy",
					"informer.resources.configmaps.field-selector=metadata.name!=skip-me,metadata.name!=kube-root-ca.crt")
			.run((context) -> {
				RecordingListener listener = context.getBean(RecordingListener.class);
				// objects outside the selectors are written first: had they
				// passed, they would have arrived before the ones that do
				admin.configMaps().resource(TestResources.configMap("it-sel", "db", Map.of("app", "db"), "x")).create();
				admin.configMaps()
					.resource(TestResources.configMap("it-sel", "old", Map.of("app", "web", "legacy", "y"), "x"))
					.create();
				admin.configMaps()
					.resource(TestResources.configMap("it-sel", "skip-me", Map.of("app", "web"), "x"))
					.create();
				admin.configMaps()
					.resource(TestResources.configMap("it-sel", "web", Map.of("app", "web"), "x"))
					.create();
				admin.configMaps()
					.resource(TestResources.configMap("it-sel", "api", Map.of("app", "api"), "x"))
					.create();
				await().atMost(Duration.ofSeconds(30))
					.until(() -> listener.events(ResourceAddedEvent.class).size() >= 2);
				assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
					.containsExactly("web", "api");
			});
	}

	@Test
	void pagedInitialListDeliversEveryObjectBeforeSync() {
		for (int i = 0; i < 23; i++) {
			admin.configMaps().resource(TestResources.configMap("it-page", "page-" + i, "x")).create();
		}
		this.runner(admin)
			.withPropertyValues(configMaps("it-page"))
			.withPropertyValues("informer.resources.configmaps.list-page-size=5",
					"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt")
			.run((context) -> {
				RecordingListener listener = context.getBean(RecordingListener.class);
				assertThat(listener.events(ResourceAddedEvent.class)).hasSize(23);
				assertThat(listener.events().get(23)).isInstanceOf(InformerSyncedEvent.class);
			});
	}

	@Test
	void aCutConnectionResumesFromTheLastResourceVersionWithoutRelisting() throws Exception {
		try (TcpProxy proxy = server.newProxy();
				KubernetesClient proxied = new KubernetesClientBuilder().withConfig(server.adminConfigThrough(proxy))
					.build()) {
			admin.configMaps().resource(TestResources.configMap("it-cut", "kept", "1")).create();
			admin.configMaps().resource(TestResources.configMap("it-cut", "doomed", "1")).create();
			this.runner(proxied)
				.withPropertyValues(configMaps("it-cut"))
				.withPropertyValues("informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt")
				.run((context) -> {
					RecordingListener listener = context.getBean(RecordingListener.class);
					Watch status = context.getBean(DefaultInformerRegistry.class)
						.informer("configmaps")
						.getWatches()
						.get(0);
					await().until(
							() -> context.getBean(DefaultInformerRegistry.class).informer("configmaps").isWatching());
					// fabric8 treats a watch that ends within 2 s of opening
					// without having received a message as 410 Gone and relists
					// (its workaround for proxies that close instead of
					// answering 410); one event through this watch first makes
					// the cut a plain connection loss, whenever it happens
					admin.configMaps().resource(TestResources.configMap("it-cut", "warm", "1")).create();
					await().atMost(Duration.ofSeconds(30))
						.until(() -> listener.events(ResourceAddedEvent.class)
							.stream()
							.anyMatch((event) -> event.getName().equals("warm")));
					listener.clear();
					proxy.cut();
					admin.configMaps().inNamespace("it-cut").withName("kept").edit((cm) -> {
						cm.getData().put("value", "2");
						return cm;
					});
					admin.configMaps().inNamespace("it-cut").withName("doomed").delete();
					admin.configMaps().resource(TestResources.configMap("it-cut", "born", "1")).create();
					proxy.restore();
					await().atMost(Duration.ofSeconds(60)).until(() -> listener.resourceEvents().size() >= 3);
					assertThat(listener.resourceEvents())
						.extracting((event) -> event.getClass().getSimpleName() + " " + event.getName())
						.containsExactly("ResourceUpdatedEvent kept", "ResourceDeletedEvent doomed",
								"ResourceAddedEvent born");
					// replayed by the watch, not discovered by a relist
					assertThat(listener.events(ResourceDeletedEvent.class))
						.noneMatch((event) -> event.isFinalStateUnknown());
					assertThat(status.snapshot().lists().relistCount()).isZero();
				});
		}
	}

	@Test
	void aForbiddenNamespaceRecoversOnceARoleBindingGrantsAccess() {
		admin.configMaps().resource(TestResources.configMap("it-rbac", "visible", "x")).create();
		Config aliceConfig = server.adminConfig();
		aliceConfig.setImpersonateUsername("alice");
		try (KubernetesClient alice = new KubernetesClientBuilder().withConfig(aliceConfig).build()) {
			this.runner(alice)
				.withPropertyValues(configMaps("it-rbac"))
				.withPropertyValues("informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt",
						"informer.startup.wait-for-sync=false")
				.run((context) -> {
					RecordingListener listener = context.getBean(RecordingListener.class);
					Watch status = context.getBean(DefaultInformerRegistry.class)
						.informer("configmaps")
						.getWatches()
						.get(0);
					await().atMost(Duration.ofSeconds(30))
						.until(() -> status.getLastError() != null && status.getLastError().httpCode() == 403);
					assertThat(status.getLastError().reason()).isEqualTo("Forbidden");
					assertThat(status.isSynced()).isFalse();
					TestResources.grantConfigMapAccess(admin, "alice", "it-rbac");
					await().atMost(Duration.ofSeconds(90)).until(status::isSynced);
					assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
						.containsExactly("visible");
				});
		}
	}

	@Test
	void aForbiddenListFailsStartupWithTheMissingRule() {
		Config bobConfig = server.adminConfig();
		bobConfig.setImpersonateUsername("bob");
		try (KubernetesClient bob = new KubernetesClientBuilder().withConfig(bobConfig).build()) {
			this.runner(bob).withPropertyValues(configMaps("it-rbac")).run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("cannot list resource \"configmaps\"");
				assertThat(context.getStartupFailure())
					.hasStackTraceContaining("forbidden to list configmaps in namespace it-rbac");
			});
		}
	}

	private static String[] configMaps(String namespaces) {
		return new String[] { "informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap",
				"informer.resources.configmaps.namespaces=" + namespaces,
				"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt" };
	}

}
