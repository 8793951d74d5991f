package dev.informer.it;

import java.time.Clock;
import java.time.Duration;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.health.InformersHealthContributor;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchHealthPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The shared watch on Namespaces of a {@code namespace-selector} on the real API server,
 * as an impersonated user whose RBAC the test changes: a revoked {@code list namespaces}
 * turns its health component DOWN as Forbidden (instead of freezing the selection while
 * health stays UP) and restored access brings it back, with the namespace labelled
 * meanwhile joining; a namespace that matches at startup before its RoleBinding exists
 * neither fails startup (with {@code fail-on-forbidden} on) nor stays out once the
 * binding is created. The grace and the stall threshold are shortened to keep the tests
 * short.
 */
class NamespaceSelectionWatchIT {

	private static final Duration GRACE = Duration.ofSeconds(3);

	private static KubernetesClient admin;

	private static RealApiServer server;

	@BeforeAll
	static void connect() {
		server = RealApiServer.get();
		admin = server.adminClient();
		admin.rbac()
			.clusterRoles()
			.resource(new ClusterRoleBuilder().withNewMetadata()
				.withName("nsw-namespace-reader")
				.endMetadata()
				.addNewRule()
				.withApiGroups("")
				.withResources("namespaces")
				.withVerbs("list", "watch")
				.endRule()
				.build())
			.serverSideApply();
	}

	@AfterAll
	static void disconnect() {
		admin.close();
	}

	@Test
	void revokedListNamespacesTurnsTheSelectionDownAsForbiddenAndRestoredAccessRecovers() throws Exception {
		String label = "it-nsw";
		createNamespace("it-nsw-a", label, true);
		createNamespace("it-nsw-b", label, false);
		admin.configMaps().resource(TestResources.configMap("it-nsw-a", "a", "1")).create();
		admin.configMaps().resource(TestResources.configMap("it-nsw-b", "b", "1")).create();
		TestResources.grantConfigMapAccess(admin, "erin", "it-nsw-a");
		TestResources.grantConfigMapAccess(admin, "erin", "it-nsw-b");
		bindNamespaceReader("erin");
		try (TcpProxy proxy = server.newProxy();
				KubernetesClient erin = new KubernetesClientBuilder().withConfig(impersonating(proxy, "erin"))
					.build()) {
			runner(erin, label).run((context) -> {
				assertThat(context).hasNotFailed();
				RecordingListener listener = context.getBean(RecordingListener.class);
				DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
				HealthIndicator selection = selectionHealth(registry);
				await().atMost(Duration.ofSeconds(30))
					.until(() -> Boolean.TRUE.equals(selection.health().getDetails().get("watching")));
				admin.rbac().clusterRoleBindings().withName("erin-nsw-namespace-reader").delete();
				// an established watch keeps streaming;
				// access is checked again when it reconnects
				proxy.cut();
				proxy.restore();
				label("it-nsw-b", label, true);
				await().atMost(Duration.ofSeconds(60)).until(() -> {
					Health health = selection.health();
					return health.getStatus().equals(Status.DOWN)
							&& "Forbidden".equals(health.getDetails().get("reason"));
				});
				assertThat(watch(registry, "it-nsw-b")).as("joined while the selection cannot be read").isNull();
				bindNamespaceReader("erin");
				await().atMost(Duration.ofSeconds(90))
					.until(() -> selection.health().getStatus().equals(Status.UP)
							&& Boolean.TRUE.equals(selection.health().getDetails().get("watching")));
				await().atMost(Duration.ofSeconds(30))
					.until(() -> listener.events(ResourceAddedEvent.class, (event) -> "b".equals(event.getName()))
						.size() == 1);
				// recovered by a list after the reconnect: fabric8's own after a
				// 410, or the replacement of a stalled watch, whichever came first
				assertThat(selection.health().getDetails().get("relists")).asString().containsPattern("410|stalled");
			});
		}
	}

	@Test
	void aNamespaceThatMatchesBeforeItsRoleBindingExistsDoesNotFailStartupAndJoinsOnceBound() {
		String label = "it-nsl";
		createNamespace("it-nsl-ok", label, true);
		createNamespace("it-nsl-late", label, true);
		admin.configMaps().resource(TestResources.configMap("it-nsl-ok", "ok", "1")).create();
		admin.configMaps().resource(TestResources.configMap("it-nsl-late", "late", "1")).create();
		TestResources.grantConfigMapAccess(admin, "gina", "it-nsl-ok");
		bindNamespaceReader("gina");
		Config config = server.adminConfig();
		config.setImpersonateUsername("gina");
		try (KubernetesClient gina = new KubernetesClientBuilder().withConfig(config).build()) {
			// fail-on-forbidden is on (the default)
			runner(gina, label).run((context) -> {
				assertThat(context).hasNotFailed();
				RecordingListener listener = context.getBean(RecordingListener.class);
				DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
				assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
					.containsExactly("ok");
				HealthIndicator late = (HealthIndicator) ((CompositeHealthContributor) health(registry)
					.getContributor("tenants")).getContributor("it-nsl-late");
				assertThat(late.health().getDetails()).containsEntry("reason", "Forbidden");
				TestResources.grantConfigMapAccess(admin, "gina", "it-nsl-late");
				await().atMost(Duration.ofSeconds(90))
					.until(() -> listener.events(ResourceAddedEvent.class, (event) -> "late".equals(event.getName()))
						.size() == 1);
				await().atMost(Duration.ofSeconds(10)).until(() -> late.health().getStatus().equals(Status.UP));
			});
		}
	}

	private ApplicationContextRunner runner(KubernetesClient client, String label) {
		return InformerContexts.runner(() -> client)
			.withBean(RecordingListener.class)
			.withPropertyValues("informer.resources.tenants.api-version=v1",
					"informer.resources.tenants.kind=ConfigMap",
					"informer.resources.tenants.namespace-selector=" + label + "=on",
					"informer.resources.tenants.field-selector=metadata.name!=kube-root-ca.crt",
					"informer.reliability.replace-stalled-after=5s");
	}

	private static InformersHealthContributor health(DefaultInformerRegistry registry) {
		return new InformersHealthContributor(registry, new WatchHealthPolicy(GRACE, Duration.ofSeconds(60)),
				Clock.systemUTC());
	}

	private static HealthIndicator selectionHealth(DefaultInformerRegistry registry) {
		return (HealthIndicator) ((CompositeHealthContributor) health(registry).getContributor("tenants"))
			.getContributor("namespaceSelector");
	}

	private static @Nullable Watch watch(DefaultInformerRegistry registry, String namespace) {
		return registry.informer("tenants")
			.getWatches()
			.stream()
			.filter((watch) -> namespace.equals(watch.getNamespace()))
			.findFirst()
			.orElse(null);
	}

	private static Config impersonating(TcpProxy proxy, String user) {
		Config config = server.adminConfigThrough(proxy);
		config.setImpersonateUsername(user);
		return config;
	}

	private static void bindNamespaceReader(String user) {
		admin.rbac()
			.clusterRoleBindings()
			.resource(new ClusterRoleBindingBuilder().withNewMetadata()
				.withName(user + "-nsw-namespace-reader")
				.endMetadata()
				.withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "nsw-namespace-reader")
				.addNewSubject()
				.withKind("User")
				.withName(user)
				.withApiGroup("rbac.authorization.k8s.io")
				.endSubject()
				.build())
			.serverSideApply();
	}

	private static void createNamespace(String name, String label, boolean selected) {
		Namespace namespace = new NamespaceBuilder().withNewMetadata()
			.withName(name)
			.addToLabels(label, selected ? "on" : "off")
			.endMetadata()
			.build();
		admin.namespaces().resource(namespace).serverSideApply();
	}

	private static void label(String name, String label, boolean selected) {
		admin.namespaces().withName(name).edit((namespace) -> {
			namespace.getMetadata().getLabels().put(label, selected ? "on" : "off");
			return namespace;
		});
	}

}
