package dev.informer.it;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
import dev.informer.watch.WatchHealth;
import dev.informer.watch.WatchHealthPolicy;
import dev.informer.watch.WatchSnapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A watch whose connection goes silent on a real API server (fault matrix row 26): after
 * the informer synced, the proxy between it and the API server stops forwarding the
 * connections already open without closing them, as a lost NAT or conntrack entry, a load
 * balancer's lost state or a control-plane upgrade does; new connections work. With
 * default settings the informer notices by what stops arriving, resumes the watch on a
 * new connection from its last resourceVersion, and every change made meanwhile reaches
 * the listener.
 */
class SilentWatchIT {

	private static final String NAMESPACE = "it-silent-watch";

	/**
	 * The contract is 90 s from the black hole to the last change delivered; the await
	 * adds 15 s for this machine's CPU contention (two cores shared by several test JVMs
	 * and API servers). The test reports the time it measured.
	 */
	private static final Duration CONTRACT_WITH_MARGIN = Duration.ofSeconds(105);

	private static RealApiServer server;

	private static KubernetesClient admin;

	@BeforeAll
	static void startServer() {
		server = RealApiServer.get();
		admin = server.adminClient();
		TestResources.createNamespaces(admin, NAMESPACE);
	}

	@AfterAll
	static void closeClient() {
		if (admin != null) {
			admin.close();
		}
	}

	@Test
	@Timeout(value = 240, unit = TimeUnit.SECONDS)
	void aBlackHoledWatchIsReplacedAndEveryChangeMadeMeanwhileIsDelivered() throws Exception {
		for (int i = 0; i < 10; i++) {
			admin.configMaps().resource(TestResources.configMap(NAMESPACE, "before-" + i, "0")).create();
		}
		try (TcpProxy proxy = server.newProxy();
				KubernetesClient proxied = new KubernetesClientBuilder().withConfig(server.adminConfigThrough(proxy))
					.build()) {
			runner(proxied).run((context) -> {
				RecordingListener listener = context.getBean(RecordingListener.class);
				ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
				dev.informer.watch.Watch status = informer.getWatches().get(0);
				WatchHealthPolicy health = context.getBean(WatchHealthPolicy.class);
				await().atMost(Duration.ofSeconds(30)).until(() -> listener.resourceEvents().size() >= 10);
				// the watch connection is open once the server has seen the watch
				await().until(() -> server.requests("watch", "configmaps", NAMESPACE),
						(requests) -> !requests.isEmpty());
				assertThat(proxy.blackHole()).isPositive();
				Instant blackHoled = Instant.now();
				// what changes meanwhile: creates and deletes, then updates; the updates
				// come last so that the view equals the server only once every change
				// is delivered (a watch delivers in order): with the updates first, the
				// view equalled it while the creates and deletes were still on their way
				Map<String, String> expected = new HashMap<>();
				for (int i = 0; i < 5; i++) {
					admin.configMaps().resource(TestResources.configMap(NAMESPACE, "after-" + i, "1")).create();
					expected.put("after-" + i, "1");
				}
				for (int i = 0; i < 5; i++) {
					admin.configMaps().inNamespace(NAMESPACE).withName("after-" + i).delete();
					expected.remove("after-" + i);
				}
				for (int i = 0; i < 10; i++) {
					admin.configMaps().resource(TestResources.configMap(NAMESPACE, "before-" + i, "1")).update();
					expected.put("before-" + i, "1");
				}
				AtomicReference<Instant> staleAt = new AtomicReference<>();
				await().atMost(CONTRACT_WITH_MARGIN).pollInterval(Duration.ofMillis(200)).until(() -> {
					// health as the application's readiness probe reads it
					WatchHealth now = health.evaluate(informer, status.snapshot(), Instant.now());
					if (staleAt.get() == null && now.level() == WatchHealth.Level.OUT_OF_SERVICE
							&& WatchHealthPolicy.STALE.equals(now.reason())) {
						staleAt.set(Instant.now());
					}
					return view(listener.resourceEvents()).equals(expected);
				});
				Instant caughtUp = Instant.now();
				System.out.println("[SilentWatchIT] stale in health after "
						+ ((staleAt.get() != null) ? Duration.between(blackHoled, staleAt.get()).toMillis() : -1)
						+ " ms, every change delivered after " + Duration.between(blackHoled, caughtUp).toMillis()
						+ " ms (from the black hole)");
				assertThat(staleAt.get()).as("health reported the watch stale before it caught up")
					.isNotNull()
					.isBefore(caughtUp);
				WatchSnapshot snapshot = status.snapshot();
				assertThat(snapshot.liveness().silentRestarts()).isEqualTo(1);
				// resumed from its resourceVersion: no relist, and each change once
				assertThat(snapshot.lists().relistCount()).isZero();
				assertThat(listener.resourceEvents()).hasSize(10 + 10 + 5 + 5);
			});
		}
	}

	/**
	 * Measures what the detection bound is derived from: how often the API server sends a
	 * bookmark on a watch where nothing changes (two intervals), and shows that with the
	 * default bounds such a quiet but working watch is neither restarted nor reported
	 * stale. The API server sends bookmarks of a kind only once its watch cache has
	 * processed a change of that kind since it started (docs/reliability.md says what
	 * happens before: one cheap restart); this test's fork may run it first on its API
	 * server, so it changes a ConfigMap elsewhere first, as any cluster has.
	 */
	@Test
	@Timeout(value = 220, unit = TimeUnit.SECONDS)
	void anIdleWatchGetsBookmarks() throws Exception {
		admin.configMaps()
			.inNamespace("default")
			.resource(TestResources.configMap("default", "silent-watch-it-" + System.nanoTime(), "v"))
			.create();
		try (KubernetesClient client = server.adminClient()) {
			runner(client).run((context) -> {
				ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
				dev.informer.watch.Watch status = informer.getWatches().get(0);
				WatchHealthPolicy health = context.getBean(WatchHealthPolicy.class);
				await().until(() -> status.snapshot().connection().watching());
				Instant opened = Instant.now();
				List<Instant> bookmarks = new CopyOnWriteArrayList<>();
				List<WatchHealth.Level> levels = new CopyOnWriteArrayList<>();
				await().atMost(Duration.ofSeconds(200)).pollInterval(Duration.ofMillis(200)).until(() -> {
					WatchSnapshot snapshot = status.snapshot();
					// health as the application's readiness probe reads it
					levels.add(health.evaluate(informer, snapshot, Instant.now()).level());
					Instant last = snapshot.liveness().lastBookmarkAt();
					if (last != null && (bookmarks.isEmpty() || last.isAfter(bookmarks.get(bookmarks.size() - 1)))) {
						bookmarks.add(last);
					}
					return bookmarks.size() >= 2;
				});
				assertThat(status.snapshot().liveness().silentRestarts()).isZero();
				assertThat(levels).as("health while the watch was quiet").containsOnly(WatchHealth.Level.UP);
				StringBuilder intervals = new StringBuilder();
				Instant previous = opened;
				for (Instant bookmark : bookmarks) {
					intervals.append(' ').append(Duration.between(previous, bookmark).toMillis());
					previous = bookmark;
				}
				System.out.println("[SilentWatchIT] bookmark intervals on an idle informer watch (ms, the first "
						+ "from the watch's start):" + intervals);
			});
		}
	}

	/**
	 * The state a user's listener builds from the events, as the docs tell: adds and
	 * updates put, deletes remove.
	 */
	private static Map<String, String> view(List<ResourceEvent<?>> events) {
		Map<String, String> view = new HashMap<>();
		for (ResourceEvent<?> event : events) {
			ConfigMap configMap = (ConfigMap) event.getResource();
			String name = configMap.getMetadata().getName();
			if (event instanceof ResourceDeletedEvent) {
				view.remove(name);
			}
			else if (event instanceof ResourceAddedEvent || event instanceof ResourceUpdatedEvent) {
				view.put(name, configMap.getData().get("value"));
			}
		}
		return view;
	}

	private ApplicationContextRunner runner(KubernetesClient client) {
		return InformerContexts.runner(() -> client)
			.withBean(RecordingListener.class)
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + NAMESPACE);
	}

}
