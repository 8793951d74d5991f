package dev.informer.it;

import java.time.Duration;
import java.util.List;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.test.InformerContexts;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * A resourceVersion compacted away while the informer was disconnected, on a real API
 * server and etcd: the resumed watch gets 410 Gone, and one relist delivers exactly the
 * differences.
 * <p>
 * The server is a dedicated one, started without the watch cache, so that watches read
 * etcd's history (which compaction removes) rather than the cache's window, and
 * compacting every two seconds rather than every five minutes. Its compactor compacts, on
 * each tick, up to the revision it saw on the previous tick (and writes a key, so the
 * revision moves even when nothing else does): a version is gone a few seconds after a
 * later write.
 */
class InformerCompactionIT {

	private static final String NAMESPACE = "it-gone";

	private static RealApiServer server;

	private static KubernetesClient admin;

	@BeforeAll
	static void startServer() {
		server = RealApiServer.startDedicated("--watch-cache=false", "--etcd-compaction-interval=2s");
		admin = server.adminClient();
		TestResources.createNamespaces(admin, NAMESPACE);
	}

	@AfterAll
	static void stopServer() {
		if (admin != null) {
			admin.close();
		}
		if (server != null) {
			server.close();
		}
	}

	@Test
	void aCompactedResourceVersionCausesOneRelistThatDeliversOnlyTheDifferences() throws Exception {
		for (String name : List.of("unchanged", "changed", "doomed")) {
			admin.configMaps().resource(TestResources.configMap(NAMESPACE, name, "1")).create();
		}
		try (TcpProxy proxy = server.newProxy();
				KubernetesClient proxied = new KubernetesClientBuilder().withConfig(server.adminConfigThrough(proxy))
					.build()) {
			runner(proxied).run((context) -> {
				RecordingListener listener = context.getBean(RecordingListener.class);
				ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
				Watch status = informer.getWatches().get(0);
				assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
					.containsExactlyInAnyOrder("unchanged", "changed", "doomed");
				await().until(() -> status.snapshot().connection().watching());
				String listed = status.snapshot().cache().lastResourceVersion();
				// fabric8 treats a watch that ends within 2 s of opening without
				// having received a message as 410 Gone and relists at once,
				// without trying to resume; one event through this watch first
				// makes the cut a plain connection loss, so that the resume is
				// tried and answered 410 by the server, whenever the cut happens
				String resumeFrom = admin.configMaps()
					.resource(TestResources.configMap(NAMESPACE, "warm", "1"))
					.create()
					.getMetadata()
					.getResourceVersion();
				await().until(
						() -> listener.resourceEvents().stream().anyMatch((event) -> "warm".equals(event.getName())));
				listener.clear();

				proxy.cut();
				admin.configMaps().inNamespace(NAMESPACE).withName("changed").edit((cm) -> {
					cm.getData().put("value", "2");
					return cm;
				});
				admin.configMaps().inNamespace(NAMESPACE).withName("doomed").delete();
				admin.configMaps().resource(TestResources.configMap(NAMESPACE, "born", "1")).create();
				await().atMost(Duration.ofSeconds(30)).until(() -> RealApiServer.isCompacted(admin, resumeFrom));
				proxy.restore();

				await().atMost(Duration.ofSeconds(60))
					.until(() -> status.snapshot().lists().relistCount() > 0
							&& status.snapshot().connection().watching());
				// one informer's notifications are delivered in order: once this
				// one arrives, everything the relist queued has been delivered
				admin.configMaps().resource(TestResources.configMap(NAMESPACE, "sentinel", "1")).create();
				await().until(() -> listener.resourceEvents()
					.stream()
					.anyMatch((event) -> "sentinel".equals(event.getName())));

				List<ResourceEvent<?>> events = listener.resourceEvents()
					.stream()
					.filter((event) -> !"sentinel".equals(event.getName()))
					.toList();
				assertThat(events).extracting((event) -> event.getClass().getSimpleName() + " " + event.getName())
					.containsExactlyInAnyOrder("ResourceUpdatedEvent changed", "ResourceDeletedEvent doomed",
							"ResourceAddedEvent born");
				ResourceUpdatedEvent<?> updated = listener.events(ResourceUpdatedEvent.class).get(0);
				assertThat(((ConfigMap) updated.getOldResource()).getData()).containsEntry("value", "1");
				assertThat(((ConfigMap) updated.getResource()).getData()).containsEntry("value", "2");
				ResourceDeletedEvent<?> deleted = listener.events(ResourceDeletedEvent.class).get(0);
				assertThat(deleted.isFinalStateUnknown()).isTrue();
				assertThat(((ConfigMap) deleted.getResource()).getData()).containsEntry("value", "1");
				assertThat(status.snapshot().lists().relists())
					.containsExactly(entry(RelistReason.GONE.tagValue(), 1L));
				assertThat(status.snapshot().lists().last().trigger()).isEqualTo(RelistReason.GONE);

				// as the server saw it: a watch from the listed version,
				// resumed after the cut from the last event's version (answered
				// 410), a second list, and a watch from that list's version
				List<String> watchedFrom = server.requests("watch", "configmaps", NAMESPACE)
					.stream()
					.map((watch) -> watch.parameter("resourceVersion"))
					.toList();
				assertThat(watchedFrom).hasSize(3);
				assertThat(watchedFrom.get(0)).isEqualTo(listed);
				assertThat(watchedFrom.get(1)).isEqualTo(resumeFrom);
				assertThat(watchedFrom.get(2)).isNotIn(listed, resumeFrom);
				assertThat(server.requests("list", "configmaps", NAMESPACE)).hasSize(2);
				assertThat(context.getBean(DefaultInformerRegistry.class).cache("configmaps", ConfigMap.class).list())
					.extracting((cm) -> cm.getMetadata().getName())
					.containsExactlyInAnyOrder("unchanged", "changed", "warm", "born", "sentinel");
			});
		}
	}

	private ApplicationContextRunner runner(KubernetesClient client) {
		return InformerContexts.runner(() -> client)
			.withBean(RecordingListener.class)
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + NAMESPACE);
	}

}
