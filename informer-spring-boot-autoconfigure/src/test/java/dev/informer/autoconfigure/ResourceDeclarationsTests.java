package dev.informer.autoconfigure;

import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;
import org.springframework.core.ResolvableType;

import dev.informer.InformerState;
import dev.informer.InvalidInformerDeclarationException;
import dev.informer.ResourceCache;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@code on-change}, {@code prune} and {@code indexes} as an application declares them:
 * bad values fail startup naming the property, the value and the fix; indexes and typed
 * cache beans answer lookups; pruned fields are gone from the cache and the events.
 */
class ResourceDeclarationsTests {

	private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

	private static MockApiServer mock;

	private static KubernetesClient client;

	private final ApplicationContextRunner runner = InformerContexts.runner(() -> client)
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=decl");

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
	void generationOnAConfigMapFailsStartupNamingTheAlternative() {
		assertInvalid("informer.resources.configmaps.on-change=generation", "on-change[0]", "generation",
				"does not set metadata.generation", "'data'");
	}

	@Test
	void generationOnAKindWhoseListedObjectsLackItFailsStartup() {
		expectPodWithoutGeneration();
		this.runner
			.withPropertyValues("informer.resources.pods.api-version=v1", "informer.resources.pods.kind=Pod",
					"informer.resources.pods.namespaces=decl", "informer.resources.pods.on-change=generation")
			.run((context) -> {
				assertThat(context).hasFailed();
				InvalidInformerDeclarationException failure = cause(context.getStartupFailure());
				assertThat(failure.getInformerName()).isEqualTo("pods");
				assertThat(failure.getProperty()).isEqualTo("on-change[0]");
				assertThat(failure.getAction()).contains("labels");
			});
	}

	@Test
	void generationOnAKindWhoseListedObjectsLackItLeavesTheWatchFailedWhenStartupDoesNotWait() {
		expectPodWithoutGeneration();
		this.runner
			.withPropertyValues("informer.resources.pods.api-version=v1", "informer.resources.pods.kind=Pod",
					"informer.resources.pods.namespaces=decl", "informer.resources.pods.on-change=generation",
					"informer.startup.wait-for-sync=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Watch watch = context.getBean(DefaultInformerRegistry.class).informer("pods").getWatches().get(0);
				await()
					.until(() -> watch.snapshot().lists().last() != null && watch.getState() == InformerState.FAILED);
				assertThat(watch.getLastError().reason()).isEqualTo("InvalidDeclaration");
				assertThat(watch.getLastError().message()).contains("on-change[0] 'generation' never changes on Pod");
			});
	}

	@Test
	void aPathWithABadBracketFailsStartup() {
		assertInvalid("informer.resources.configmaps.on-change=metadata.labels[app]", "on-change[0]",
				"metadata.labels[app]", "expected a quoted key", "metadata.labels['app']");
	}

	@Test
	void anUnknownRootOrFieldFailsStartupWhereTheModelClassTells() {
		assertInvalid("informer.resources.configmaps.on-change=spec.replicas", "on-change[0]", "spec.replicas",
				"the kind has no field 'spec'", "data");
		assertInvalid("informer.resources.configmaps.indexes.by-app=metadata.lables['app']", "indexes.by-app",
				"metadata.lables['app']", "metadata has no field 'lables'", "kubectl explain configmap");
		assertInvalid("informer.resources.configmaps.prune=metadata.labels[*]", "prune[0]", "metadata.labels[*]",
				"ends in [*]", "drop the trailing [*]");
	}

	@Test
	void statusOnAMetadataOnlyInformerFailsStartup() {
		assertInvalid("informer.resources.configmaps.cache=metadata", "informer.resources.configmaps.on-change=status",
				"on-change[0]", "status", "metadata-only", "cache: full");
	}

	@Test
	void anyWithOtherPartsAndPruningTheComparedPartFailStartup() {
		assertInvalid("informer.resources.configmaps.on-change=any,labels", "on-change", "[any, labels]",
				"'any' delivers every update", "Keep only 'any'");
		assertInvalid("informer.resources.configmaps.on-change=data", "informer.resources.configmaps.prune=data",
				"prune[0]", "data", "never see a change", "Remove the prune");
		assertInvalid("informer.resources.configmaps.prune=metadata.name", "prune[0]", "metadata.name",
				"key and compare objects", "Prune fields inside metadata");
	}

	@Test
	void indexesAnswerByIndexAndIndexKeysAndTypedCachesAreInjectedByName() {
		client.configMaps().resource(TestResources.configMap("decl", "web-1", Map.of("app", "web"), "1")).create();
		client.configMaps().resource(TestResources.configMap("decl", "web-2", Map.of("app", "web"), "1")).create();
		client.configMaps().resource(TestResources.configMap("decl", "db-1", Map.of("app", "db"), "1")).create();
		this.runner.withBean(CacheUser.class)
			.withPropertyValues("informer.resources.configmaps.indexes.by-app=metadata.labels['app']")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ResourceCache<ConfigMap> cache = context.getBean(CacheUser.class).configMaps;
				assertThat(cache.byIndex("by-app", "web")).extracting((cm) -> cm.getMetadata().getName())
					.containsExactlyInAnyOrder("web-1", "web-2");
				assertThat(cache.byIndex("by-app", "none")).isEmpty();
				assertThat(cache.indexKeys("by-app")).containsExactly("db", "web");
				assertThatIllegalArgumentException().isThrownBy(() -> cache.byIndex("by-node", "x"))
					.withMessageContaining("by-app");
				client.configMaps().inNamespace("decl").withName("db-1").edit((cm) -> {
					cm.getMetadata().setLabels(Map.of("app", "web"));
					return cm;
				});
				await().until(() -> cache.byIndex("by-app", "web").size() == 3);
				assertThat(cache.indexKeys("by-app")).containsExactly("web");
			});
		client.configMaps().inNamespace("decl").delete();
	}

	@Test
	void aMetadataOnlyInformersCacheBeanHoldsPartialObjectMetadata() {
		this.runner.withPropertyValues("informer.resources.configmaps.cache=metadata").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBeanNamesForType(
					ResolvableType.forClassWithGenerics(ResourceCache.class, PartialObjectMetadata.class)))
				.containsExactly("informerCache.configmaps");
			assertThat(context
				.getBeanNamesForType(ResolvableType.forClassWithGenerics(ResourceCache.class, ConfigMap.class)))
				.isEmpty();
		});
	}

	@Test
	void spelConditionsLookUpTheIndexThroughTheCacheBean() {
		client.configMaps().resource(TestResources.configMap("decl", "web-1", Map.of("app", "web"), "1")).create();
		client.configMaps().resource(TestResources.configMap("decl", "web-2", Map.of("app", "web"), "1")).create();
		client.configMaps().resource(TestResources.configMap("decl", "db-1", Map.of("app", "db"), "1")).create();
		this.runner.withBean(SharedAppListener.class)
			.withPropertyValues("informer.resources.configmaps.indexes.by-app=metadata.labels['app']")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				SharedAppListener listener = context.getBean(SharedAppListener.class);
				for (String name : List.of("db-1", "web-1")) {
					client.configMaps().inNamespace("decl").withName(name).edit((cm) -> {
						cm.setData(Map.of("value", "2"));
						return cm;
					});
				}
				await().until(() -> !listener.updated.isEmpty());
				assertThat(listener.updated).containsExactly("web-1");
			});
		client.configMaps().inNamespace("decl").delete();
	}

	@Test
	void prunedFieldsAreNeitherCachedNorDelivered() {
		client.configMaps()
			.resource(new ConfigMapBuilder(TestResources.configMap("decl", "applied", "1")).editMetadata()
				.withAnnotations(Map.of(LAST_APPLIED, "{\"big\":true}", "kept", "yes"))
				.endMetadata()
				.build())
			.create();
		this.runner.withBean(AddListener.class)
			.withPropertyValues("informer.resources.configmaps.prune=metadata.annotations['" + LAST_APPLIED + "']")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				AddListener listener = context.getBean(AddListener.class);
				await().until(() -> !listener.added.isEmpty());
				assertThat(listener.added.get(0).getMetadata().getAnnotations()).containsOnlyKeys("kept");
				ResourceCache<ConfigMap> cache = context.getBean(dev.informer.InformerRegistry.class)
					.cache("configmaps", ConfigMap.class);
				assertThat(cache.get("decl", "applied").orElseThrow().getMetadata().getAnnotations())
					.containsOnlyKeys("kept");
			});
		client.configMaps().inNamespace("decl").delete();
	}

	private static void expectPodWithoutGeneration() {
		// fabric8's mock sets a generation on every object it creates: list one without,
		// as a real API server lists a kind that does not bump it
		mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces/decl/pods?resourceVersion=0")
			.andReturn(200,
					new PodListBuilder().withNewMetadata()
						.withResourceVersion("1")
						.endMetadata()
						.addToItems(new PodBuilder().withNewMetadata()
							.withNamespace("decl")
							.withName("p")
							.withResourceVersion("1")
							.endMetadata()
							.build())
						.build())
			.always();
	}

	private void assertInvalid(String... propertiesThenExpectations) {
		int split = 0;
		while (propertiesThenExpectations[split].startsWith("informer.")) {
			split++;
		}
		String[] properties = java.util.Arrays.copyOf(propertiesThenExpectations, split);
		String property = propertiesThenExpectations[split];
		String value = propertiesThenExpectations[split + 1];
		String problem = propertiesThenExpectations[split + 2];
		String action = propertiesThenExpectations[split + 3];
		this.runner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			InvalidInformerDeclarationException failure = cause(context.getStartupFailure());
			assertThat(failure.getInformerName()).isEqualTo("configmaps");
			assertThat(failure.getProperty()).isEqualTo(property);
			assertThat(String.valueOf(failure.getValue())).isEqualTo(value);
			assertThat(failure.getProblem()).contains(problem);
			assertThat(failure.getAction()).contains(action);
		});
	}

	private static InvalidInformerDeclarationException cause(Throwable failure) {
		for (Throwable current = failure; current != null; current = current.getCause()) {
			if (current instanceof InvalidInformerDeclarationException invalid) {
				return invalid;
			}
		}
		throw new AssertionError("No InvalidInformerDeclarationException in " + failure, failure);
	}

	static class CacheUser {

		@Autowired
		@Qualifier("configmaps")
		ResourceCache<ConfigMap> configMaps;

	}

	static class SharedAppListener {

		final List<String> updated = new java.util.concurrent.CopyOnWriteArrayList<>();

		// the objects that share their app with another
		@EventListener(condition = "@'informerCache.configmaps'.byIndex('by-app', "
				+ "#event.resource.metadata.labels['app']).size() > 1")
		void on(ResourceUpdatedEvent<ConfigMap> event) {
			this.updated.add(event.getName());
		}

	}

	static class AddListener {

		final List<ConfigMap> added = new java.util.concurrent.CopyOnWriteArrayList<>();

		@EventListener
		void on(ResourceAddedEvent<ConfigMap> event) {
			this.added.add(event.getResource());
		}

	}

}
