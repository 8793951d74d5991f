package dev.informer.it;

import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.InformerRegistry;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.test.InformerContexts;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Metadata-only informers on a real API server: it answers lists and watches in the
 * {@code PartialObjectMetadata} representation the starter asks for, for a core kind in a
 * namespace list and for a custom resource cluster-wide, and changes, deletes and a
 * relist arrive as for full objects. An object the server sent in full would carry its
 * own kind ({@code ConfigMap}) and its data.
 */
class MetadataInformerIT {

	private static final String A = "it-meta-a";

	private static final String B = "it-meta-b";

	private static final String EMPTY = "it-meta-empty";

	private static final String PARTIAL = "PartialObjectMetadata";

	private static KubernetesClient admin;

	private final ApplicationContextRunner runner = InformerContexts.runner(() -> admin)
		.withBean(RecordingListener.class)
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap",
				"informer.resources.configmaps.namespaces=" + A + "," + B,
				"informer.resources.configmaps.label-selector=it=meta", "informer.resources.configmaps.cache=metadata",
				"informer.resources.widgets.api-version=example.com/v1", "informer.resources.widgets.kind=Widget",
				"informer.resources.widgets.cache=metadata");

	@BeforeAll
	static void createObjects() {
		admin = RealApiServer.get().adminClient();
		TestResources.createNamespaces(admin, A, B);
		TestResources.applyCrd(admin, "widgets", "Widget");
		admin.configMaps().resource(TestResources.configMap(A, "first", Map.of("it", "meta"), "a")).create();
		admin.configMaps().resource(TestResources.configMap(B, "second", Map.of("it", "meta"), "b")).create();
		admin.genericKubernetesResources("example.com/v1", "Widget")
			.resource(TestResources.widget(A, "w1", "blue"))
			.create();
	}

	@AfterAll
	static void closeClient() {
		if (admin != null) {
			admin.close();
		}
	}

	@Test
	void listsWatchesAndRelistsOnlyMetadata() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			RecordingListener listener = context.getBean(RecordingListener.class);
			assertThat(listener.events(InformerSyncedEvent.class)).extracting(InformerSyncedEvent::getInformerName)
				.containsExactlyInAnyOrder("configmaps", "widgets");
			assertThat(names(listener.events(ResourceAddedEvent.class), "configmaps"))
				.containsExactlyInAnyOrder(A + "/first", B + "/second");
			assertThat(names(listener.events(ResourceAddedEvent.class), "widgets")).containsExactly(A + "/w1");
			InformerRegistry registry = context.getBean(InformerRegistry.class);
			assertThat(registry.cache("configmaps", PartialObjectMetadata.class).get(A, "first"))
				.hasValueSatisfying((cached) -> assertThat(cached.getKind()).isEqualTo(PARTIAL));

			// watched changes
			admin.configMaps().resource(TestResources.configMap(B, "third", Map.of("it", "meta"), "c")).create();
			admin.configMaps().inNamespace(A).withName("first").edit((cm) -> {
				cm.getMetadata().getLabels().put("colour", "green");
				return cm;
			});
			admin.configMaps().inNamespace(B).withName("second").delete();
			admin.genericKubernetesResources("example.com/v1", "Widget")
				.inNamespace(A)
				.withName("w1")
				.edit((widget) -> {
					widget.getMetadata().setAnnotations(Map.of("note", "x"));
					return widget;
				});
			await().until(() -> listener.events(ResourceDeletedEvent.class).size() == 1
					&& listener.events(ResourceUpdatedEvent.class).size() == 2);
			assertThat(names(listener.events(ResourceAddedEvent.class), "configmaps")).contains(B + "/third");
			ResourceUpdatedEvent<?> labelled = listener
				.events(ResourceUpdatedEvent.class, (event) -> "configmaps".equals(event.getInformerName()))
				.get(0);
			assertThat(labelled.getResource().getMetadata().getLabels()).containsEntry("colour", "green");
			assertThat(labelled.getOldResource().getMetadata().getLabels()).doesNotContainKey("colour");
			ResourceUpdatedEvent<?> annotated = listener
				.events(ResourceUpdatedEvent.class, (event) -> "widgets".equals(event.getInformerName()))
				.get(0);
			assertThat(annotated.getResource().getMetadata().getAnnotations()).containsEntry("note", "x");
			assertThat(names(listener.events(ResourceDeletedEvent.class), "configmaps")).containsExactly(B + "/second");
			assertOnlyMetadata(listener.resourceEvents());

			// a relist lists metadata again and finds nothing changed
			int before = listener.resourceEvents().size();
			registry.informer("configmaps").relist().get();
			registry.informer("widgets").relist().get();
			admin.configMaps().inNamespace(A).withName("first").delete();
			await().until(() -> listener.events(ResourceDeletedEvent.class).size() == 2);
			List<ResourceEvent<?>> after = listener.resourceEvents().subList(before, listener.resourceEvents().size());
			assertThat(after).singleElement()
				.satisfies((event) -> assertThat(event).isInstanceOf(ResourceDeletedEvent.class))
				.satisfies((event) -> assertThat(event.getName()).isEqualTo("first"));
			assertThat(registry.cache("configmaps", PartialObjectMetadata.class).list())
				.extracting((cached) -> cached.getMetadata().getNamespace() + "/" + cached.getMetadata().getName())
				.containsExactly(B + "/third");
			assertOnlyMetadata(listener.resourceEvents());
			assertThat(RealApiServer.get().requests("list", "configmaps", A)).hasSizeGreaterThanOrEqualTo(2);
		});
	}

	@Test
	void anEmptyCollectionSyncs() {
		// the server sends an empty PartialObjectMetadataList with "items": null
		TestResources.createNamespaces(admin, EMPTY);
		InformerContexts.runner(() -> admin)
			.withBean(RecordingListener.class)
			.withPropertyValues("informer.startup.timeout=15s", "informer.resources.empty.api-version=v1",
					"informer.resources.empty.kind=ConfigMap", "informer.resources.empty.namespaces=" + EMPTY,
					"informer.resources.empty.cache=metadata")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RecordingListener listener = context.getBean(RecordingListener.class);
				assertThat(listener.events(InformerSyncedEvent.class)).singleElement()
					.satisfies((synced) -> assertThat(synced.getCacheSize()).isZero());
				admin.configMaps().resource(TestResources.configMap(EMPTY, "later", "x")).create();
				await().until(() -> listener.events(ResourceAddedEvent.class).size() == 1);
				assertOnlyMetadata(listener.resourceEvents());
			});
	}

	private static void assertOnlyMetadata(List<ResourceEvent<?>> events) {
		assertThat(events).isNotEmpty().allSatisfy((event) -> {
			assertThat(event.getResource()).isExactlyInstanceOf(PartialObjectMetadata.class);
			assertThat(event.getResource().getKind()).isEqualTo(PARTIAL);
			assertThat(event.getResource().getApiVersion()).isEqualTo("meta.k8s.io/v1");
		});
	}

	private static List<String> names(List<?> events, String informer) {
		return events.stream()
			.map((event) -> (ResourceEvent<?>) event)
			.filter((event) -> informer.equals(event.getInformerName()))
			.map((event) -> event.getNamespace() + "/" + event.getName())
			.toList();
	}

}
