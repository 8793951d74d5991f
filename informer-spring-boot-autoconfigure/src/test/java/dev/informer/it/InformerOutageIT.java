package dev.informer.it;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.event.ResourceEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.test.InformerContexts;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchHealth;
import dev.informer.watch.WatchHealthPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Outages on a real API server (fault matrix rows 10 and 14): health goes down after the
 * grace period and comes back by itself, with no event storm on recovery. The grace
 * period is shortened to keep the tests short; the behaviour is the same with the 90 s
 * default.
 */
class InformerOutageIT {

	private static final Duration GRACE = Duration.ofSeconds(3);

	private static RealApiServer server;

	private static KubernetesClient admin;

	@BeforeAll
	static void startServer() {
		server = RealApiServer.get();
		admin = server.adminClient();
		TestResources.createNamespaces(admin, "it-outage", "it-revoke");
	}

	@AfterAll
	static void closeClient() {
		if (admin != null) {
			admin.close();
		}
	}

	@Test
	void anUnreachableServerTurnsHealthDownAfterTheGraceAndRecoveryDeliversOnlyWhatChanged() throws Exception {
		for (int i = 0; i < 20; i++) {
			admin.configMaps().resource(TestResources.configMap("it-outage", "cm-" + i, "1")).create();
		}
		try (TcpProxy proxy = server.newProxy();
				KubernetesClient proxied = new KubernetesClientBuilder().withConfig(server.adminConfigThrough(proxy))
					.build()) {
			runner(proxied, "it-outage").run((context) -> {
				RecordingListener listener = context.getBean(RecordingListener.class);
				ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
				Watch status = informer.getWatches().get(0);
				await().until(() -> status.isWatching());
				listener.clear();
				proxy.cut();
				admin.configMaps().inNamespace("it-outage").withName("cm-3").edit((cm) -> {
					cm.getData().put("value", "2");
					return cm;
				});
				WatchHealthPolicy health = new WatchHealthPolicy(GRACE, Duration.ofSeconds(60));
				await().atMost(Duration.ofSeconds(30))
					.until(() -> health.evaluate(informer, status.snapshot(), Instant.now())
						.level() == WatchHealth.Level.DOWN);
				assertThat(health.evaluate(informer, status.snapshot(), Instant.now()).reason()).isEqualTo("WatchLost");
				proxy.restore();
				await().atMost(Duration.ofSeconds(60))
					.until(() -> health.evaluate(informer, status.snapshot(), Instant.now())
						.level() == WatchHealth.Level.UP && !listener.resourceEvents().isEmpty());
				// 20 cached objects, one changed: one event, not a storm
				assertThat(listener.resourceEvents())
					.extracting((event) -> event.getClass().getSimpleName() + " " + event.getName())
					.containsExactly("ResourceUpdatedEvent cm-3");
			});
		}
	}

	@Test
	void revokedAccessTurnsHealthDownAsForbiddenAndRestoredAccessRecovers() throws Exception {
		TestResources.grantConfigMapAccess(admin, "carol", "it-revoke");
		admin.configMaps().resource(TestResources.configMap("it-revoke", "kept", "1")).create();
		try (TcpProxy proxy = server.newProxy();
				KubernetesClient client = new KubernetesClientBuilder().withConfig(impersonating(proxy, "carol"))
					.build()) {
			runner(client, "it-revoke").run((context) -> {
				RecordingListener listener = context.getBean(RecordingListener.class);
				ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
				Watch status = informer.getWatches().get(0);
				await().until(() -> status.isWatching());
				List<ResourceEvent<?>> before = new ArrayList<>(listener.resourceEvents());
				admin.rbac().roleBindings().inNamespace("it-revoke").withName("carol-configmap-reader").delete();
				// an established watch keeps streaming;
				// access is checked again when it reconnects
				proxy.cut();
				proxy.restore();
				WatchHealthPolicy health = new WatchHealthPolicy(GRACE, Duration.ofSeconds(60));
				// fabric8 retries the watch without saying why it fails; replacing
				// the stalled informer lists, and the list's 403 names the cause
				await().atMost(Duration.ofSeconds(60)).until(() -> {
					WatchHealth watchHealth = health.evaluate(informer, status.snapshot(), Instant.now());
					return watchHealth.level() == WatchHealth.Level.DOWN && "Forbidden".equals(watchHealth.reason());
				});
				assertThat(status.getLastError().httpCode()).isEqualTo(403);
				TestResources.grantConfigMapAccess(admin, "carol", "it-revoke");
				await().atMost(Duration.ofSeconds(90))
					.until(() -> health.evaluate(informer, status.snapshot(), Instant.now())
						.level() == WatchHealth.Level.UP);
				// nothing changed while access was revoked: nothing to deliver
				assertThat(listener.resourceEvents()).isEqualTo(before);
			});
		}
	}

	private static Config impersonating(TcpProxy proxy, String user) {
		Config config = server.adminConfigThrough(proxy);
		config.setImpersonateUsername(user);
		return config;
	}

	private ApplicationContextRunner runner(KubernetesClient client, String namespace) {
		return runner(client, namespace, "informer.reliability.replace-stalled-after=5s");
	}

	private ApplicationContextRunner runner(KubernetesClient client, String namespace, String... properties) {
		return InformerContexts.runner(() -> client)
			.withBean(RecordingListener.class)
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + namespace,
					"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt")
			.withPropertyValues(properties);
	}

}
