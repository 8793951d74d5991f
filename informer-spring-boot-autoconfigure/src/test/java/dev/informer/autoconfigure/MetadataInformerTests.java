package dev.informer.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

import dev.informer.InformerCustomizer;
import dev.informer.InvalidInformerDeclarationException;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Metadata-only informers ({@code cache: metadata}) against fabric8's mock API server:
 * what the starter asks for and what listeners receive. The mock answers full objects
 * whatever it is asked; that the real server answers {@code PartialObjectMetadata} is
 * proven by {@code MetadataInformerIT}.
 */
class MetadataInformerTests {

	private static MockApiServer mock;

	private static KubernetesClient client;

	private final ApplicationContextRunner runner = InformerContexts.runner(() -> client)
		.withBean(MetadataListener.class)
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.cache=metadata");

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
	void listsAndWatchesAsPartialObjectMetadataAndDeliversIt() throws Exception {
		client.configMaps().resource(TestResources.configMap("meta", "before", "x")).create();
		this.runner.withPropertyValues("informer.resources.configmaps.namespaces=meta").run((context) -> {
			assertThat(context).hasNotFailed();
			MetadataListener listener = context.getBean(MetadataListener.class);
			client.configMaps().resource(TestResources.configMap("meta", "after", "y")).create();
			client.configMaps().inNamespace("meta").withName("after").edit((cm) -> {
				cm.getMetadata().setLabels(Map.of("colour", "blue"));
				return cm;
			});
			await().until(() -> listener.updated.size() == 1);
			assertThat(listener.added).extracting((event) -> event.getName()).containsExactly("before", "after");
			assertThat(listener.added).allSatisfy((event) -> {
				assertThat(event.getResource()).isExactlyInstanceOf(PartialObjectMetadata.class);
				assertThat(event.getInformerName()).isEqualTo("configmaps");
			});
			assertThat(listener.updated.get(0).getResource().getMetadata().getLabels()).containsEntry("colour", "blue");
			assertThat(listener.configMaps).isEmpty();
			assertThat(context.getBean(DefaultInformerRegistry.class)
				.cache("configmaps", PartialObjectMetadata.class)
				.get("meta", "before")).isPresent();
		});
		List<RecordedRequest> requests = new ArrayList<>();
		for (RecordedRequest request = mock.server().takeRequest(1, TimeUnit.SECONDS); request != null; request = mock
			.server()
			.takeRequest(100, TimeUnit.MILLISECONDS)) {
			requests.add(request);
		}
		List<RecordedRequest> informerRequests = requests.stream()
			.filter((request) -> request.getPath().startsWith("/api/v1/namespaces/meta/configmaps?"))
			.toList();
		assertThat(informerRequests).filteredOn((request) -> !request.getPath().contains("watch=true"))
			.isNotEmpty()
			.allSatisfy((list) -> assertThat(list.getHeader("Accept"))
				.startsWith("application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"));
		assertThat(informerRequests).filteredOn((request) -> request.getPath().contains("watch=true"))
			.isNotEmpty()
			.allSatisfy((watch) -> assertThat(watch.getHeader("Accept"))
				.startsWith("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"));
		// the application's own requests through the same client are not affected
		assertThat(requests)
			.filteredOn((request) -> request.getPath().startsWith("/api/v1/namespaces/meta/configmaps")
					&& !request.getPath().contains("?"))
			.isNotEmpty()
			.allSatisfy((request) -> assertThat(String.valueOf(request.getHeader("Accept")))
				.doesNotContain("PartialObjectMetadata"));
	}

	@Test
	void customizersSeeTheMetadataInformerAndTheirTransformsRunOnPartialObjectMetadata() {
		client.configMaps().resource(TestResources.configMap("meta-transform", "one", "x")).create();
		InformerCustomizer customizer = (spec) -> {
			assertThat(spec.getDefinition().getResourceClass()).isEqualTo(PartialObjectMetadata.class);
			spec.addTransform((resource) -> resource.getMetadata().setAnnotations(Map.of("seen-by", "transform")));
		};
		this.runner.withBean(InformerCustomizer.class, () -> customizer)
			.withPropertyValues("informer.resources.configmaps.namespaces=meta-transform")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(MetadataListener.class).added).singleElement()
					.satisfies((event) -> assertThat(event.getResource().getMetadata().getAnnotations())
						.containsEntry("seen-by", "transform"));
			});
	}

	@Test
	void aTypeCannotBeCombinedWithMetadataOnly() {
		this.runner.withPropertyValues("informer.resources.configmaps.type=" + ConfigMap.class.getName())
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidInformerDeclarationException.class)
					.hasMessageContaining("cache")
					.hasMessageContaining("type");
			});
	}

	static class MetadataListener {

		final List<ResourceAddedEvent<PartialObjectMetadata>> added = new CopyOnWriteArrayList<>();

		final List<ResourceUpdatedEvent<PartialObjectMetadata>> updated = new CopyOnWriteArrayList<>();

		final List<ConfigMap> configMaps = new CopyOnWriteArrayList<>();

		@EventListener
		void on(ResourceAddedEvent<PartialObjectMetadata> event) {
			this.added.add(event);
		}

		@EventListener
		void on(ResourceUpdatedEvent<PartialObjectMetadata> event) {
			this.updated.add(event);
		}

		@EventListener
		void onConfigMap(ResourceAddedEvent<ConfigMap> event) {
			this.configMaps.add(event.getResource());
		}

	}

}
