package dev.informer.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.DeliveryRole;
import dev.informer.InformerRegistry;
import dev.informer.ResourceCache;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.test.InformerContexts;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link ResourceCache#awaitResourceVersion} on the real API server, used as its javadoc
 * tells a user to: write, then wait for the resourceVersion the server answered. The
 * oracle is the write itself: what the server returned, or that the object is gone.
 */
class ReadYourWritesIT {

	private static final String NAMESPACE = "it-ryw";

	private static final String OTHER = "it-ryw-other";

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static KubernetesClient admin;

	@BeforeAll
	static void startServer() {
		admin = RealApiServer.get().adminClient();
		TestResources.createNamespaces(admin, NAMESPACE, OTHER);
	}

	@AfterAll
	static void closeClient() {
		if (admin != null) {
			admin.close();
		}
	}

	@Test
	void createsUpdatesAndDeletesAreReadBackOnceTheCacheHasThem() {
		runner("informer.resources.configmaps.namespaces=" + NAMESPACE + "," + OTHER).run((context) -> {
			ResourceCache<ConfigMap> cache = cache(context);
			for (String namespace : List.of(NAMESPACE, OTHER)) {
				ConfigMap created = admin.configMaps()
					.resource(TestResources.configMap(namespace, "written", "v1"))
					.create();
				assertThat(awaitWrite(cache, created)).hasValueSatisfying((cached) -> {
					assertThat(cached.getData()).containsEntry("value", "v1");
					assertThat(cached.getMetadata().getResourceVersion())
						.isEqualTo(created.getMetadata().getResourceVersion());
				});
				ConfigMap updated = created;
				for (int i = 2; i <= 20; i++) {
					// each write read back before the next: the cache is never behind
					// what this caller wrote
					String value = "v" + i;
					updated = admin.configMaps()
						.inNamespace(namespace)
						.withName("written")
						.edit((cm) -> TestResources.configMap(namespace, "written", value));
					assertThat(awaitWrite(cache, updated).map((cm) -> cm.getData().get("value"))).contains(value);
				}
				admin.configMaps().resource(updated).delete();
				// a delete answers with no resourceVersion: read one after it
				String afterDelete = consistentResourceVersion(namespace);
				assertThat(cache.awaitResourceVersion(namespace, "written", afterDelete, TIMEOUT)).isEmpty();
				assertThat(cache.get(namespace, "written")).isEmpty();
			}
		});
	}

	@Test
	void anObjectThatLeavesTheSelectorIsReadBackAsGone() {
		runner("informer.resources.configmaps.namespaces=" + NAMESPACE,
				"informer.resources.configmaps.label-selector=ryw=in")
			.run((context) -> {
				ResourceCache<ConfigMap> cache = cache(context);
				ConfigMap created = admin.configMaps()
					.resource(TestResources.configMap(NAMESPACE, "leaving", Map.of("ryw", "in"), "v1"))
					.create();
				assertThat(awaitWrite(cache, created)).isPresent();
				ConfigMap left = admin.configMaps()
					.inNamespace(NAMESPACE)
					.withName("leaving")
					.edit((cm) -> TestResources.configMap(NAMESPACE, "leaving", Map.of("ryw", "out"), "v2"));
				assertThat(awaitWrite(cache, left)).isEmpty();
				admin.configMaps().resource(left).delete();
			});
	}

	@Test
	void withANamespaceSelectorTheNamespacesThatMatchAreReadBack() {
		String label = "ryw-selected";
		String selected = "it-ryw-selected";
		admin.namespaces()
			.resource(new NamespaceBuilder().withNewMetadata()
				.withName(selected)
				.addToLabels(label, "on")
				.endMetadata()
				.build())
			.serverSideApply();
		runner("informer.resources.configmaps.namespace-selector=" + label + "=on").run((context) -> {
			ResourceCache<ConfigMap> cache = cache(context);
			await().atMost(TIMEOUT)
				.until(() -> context.getBean(DefaultInformerRegistry.class)
					.informer("configmaps")
					.getWatches()
					.size() == 1);
			ConfigMap created = admin.configMaps()
				.resource(TestResources.configMap(selected, "written", "v1"))
				.create();
			assertThat(awaitWrite(cache, created).map((cm) -> cm.getData().get("value"))).contains("v1");
			// not selected: never cached, so the wait times out
			ConfigMap elsewhere = admin.configMaps()
				.resource(TestResources.configMap(OTHER, "not-selected", "v1"))
				.create();
			assertThatExceptionOfType(TimeoutException.class).isThrownBy(() -> cache.awaitResourceVersion(OTHER,
					"not-selected", elsewhere.getMetadata().getResourceVersion(), Duration.ofMillis(500)));
			admin.configMaps().resource(created).delete();
			admin.configMaps().resource(elsewhere).delete();
		});
	}

	@Test
	void aVersionTheCacheHasNotReachedTimesOut() {
		runner("informer.resources.configmaps.namespaces=" + NAMESPACE).run((context) -> {
			ResourceCache<ConfigMap> cache = cache(context);
			String future = Long.toString(Long.parseLong(consistentResourceVersion(NAMESPACE)) + 1_000_000);
			long start = System.nanoTime();
			assertThatExceptionOfType(TimeoutException.class)
				.isThrownBy(() -> cache.awaitResourceVersion(NAMESPACE, "absent", future, Duration.ofMillis(300)))
				.withMessageContaining(future);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
		});
	}

	/**
	 * Sharded with the server's shard selectors: a replica caches only its range, so an
	 * object another replica owns is never in its cache. Its wait ends empty once its
	 * watch has passed the version: on its next event, or the next bookmark.
	 */
	@Test
	void aShardedReplicaThatDoesNotOwnTheObjectReadsItBackAsNotCached() {
		String namespace = "it-ryw-sharded";
		try (RealApiServer server = RealApiServer.startDedicated("--feature-gates=ShardedListAndWatch=true");
				KubernetesClient shardAdmin = server.adminClient();
				KubernetesClient clientA = server.adminClient();
				KubernetesClient clientB = server.adminClient()) {
			TestResources.createNamespaces(shardAdmin, namespace);
			replica("a", namespace, clientA).run((a) -> replica("b", namespace, clientB).run((b) -> {
				await().atMost(TIMEOUT)
					.until(() -> List.of(a, b)
						.stream()
						.allMatch(
								(r) -> r.getBean(DeliveryCoordinator.class).snapshot().sharding().members().size() == 2
										&& r.getBean(DeliveryCoordinator.class)
											.snapshot()
											.sharding()
											.role() == DeliveryRole.MEMBER));
				ConfigMap ofB = null;
				ConfigMap ofA = null;
				for (int i = 0; ofA == null || ofB == null; i++) {
					ConfigMap created = shardAdmin.configMaps()
						.resource(TestResources.configMap(namespace, "obj-" + i, "v1"))
						.create();
					String owner = ShardOwner.of(created.getMetadata().getUid(), List.of("a", "b"));
					if (owner.equals("b") && ofB == null) {
						ofB = created;
					}
					else if (owner.equals("a") && ofA == null) {
						ofA = created;
					}
				}
				// the owner reads its write back
				assertThat(awaitWrite(cache(b), ofB)).isPresent();
				// a change in a's range moves a's watch past b's object
				ConfigMap later = shardAdmin.configMaps()
					.inNamespace(namespace)
					.withName(ofA.getMetadata().getName())
					.edit((cm) -> TestResources.configMap(namespace, cm.getMetadata().getName(), "v2"));
				assertThat(awaitWrite(cache(a), later)).isPresent();
				assertThat(awaitWrite(cache(a), ofB)).isEmpty();
			}));
		}
	}

	private static Optional<ConfigMap> awaitWrite(ResourceCache<ConfigMap> cache, ConfigMap written)
			throws TimeoutException {
		return cache.awaitResourceVersion(written.getMetadata().getNamespace(), written.getMetadata().getName(),
				written.getMetadata().getResourceVersion(), TIMEOUT);
	}

	private static String consistentResourceVersion(String namespace) {
		return admin.configMaps()
			.inNamespace(namespace)
			.list(new ListOptionsBuilder().withLimit(1L).build())
			.getMetadata()
			.getResourceVersion();
	}

	private static ResourceCache<ConfigMap> cache(AssertableApplicationContext context) {
		return context.getBean(InformerRegistry.class).cache("configmaps", ConfigMap.class);
	}

	private static ApplicationContextRunner runner(String... properties) {
		return InformerContexts.runner(() -> admin)
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap")
			.withPropertyValues(properties);
	}

	private static ApplicationContextRunner replica(String identity, String namespace, KubernetesClient client) {
		return InformerContexts.runner(() -> client)
			.withPropertyValues("informer.replicas.mode=sharded", "informer.replicas.group=" + namespace,
					"informer.replicas.identity=" + identity, "informer.replicas.lease-namespace=" + namespace,
					"informer.replicas.lease-duration=4s", "informer.replicas.renew-deadline=3s",
					"informer.replicas.retry-period=500ms", "informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + namespace,
					"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt");
	}

}
