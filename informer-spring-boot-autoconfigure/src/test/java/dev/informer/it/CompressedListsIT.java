package dev.informer.it;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.informer.InformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lists compressed by a real API server ({@code informer.compress-lists}, on by default):
 * the informer asks for gzip, the server compresses a list this large, and the informer
 * caches what the server holds, exactly as from an uncompressed list; watches are never
 * compressed. With the property off, nothing is asked for and nothing compressed.
 */
class CompressedListsIT {

	private static final String NAMESPACE = "it-compressed-lists";

	/** Larger than the size from which kube-apiserver compresses a response. */
	private static final int OBJECTS = 400;

	private static KubernetesClient admin;

	private final List<String> encodings = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void createObjects() {
		admin = RealApiServer.get().adminClient();
		TestResources.createNamespaces(admin, NAMESPACE);
		for (int i = 0; i < OBJECTS; i++) {
			admin.configMaps()
				.resource(TestResources.configMap(NAMESPACE, "cm-" + i, Map.of("it", "compressed"), "v".repeat(1024)))
				.create();
		}
	}

	@AfterAll
	static void closeClient() {
		if (admin != null) {
			admin.close();
		}
	}

	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void anInformerCachesWhatTheServerHoldsFromACompressedOrPlainList(boolean compress) {
		KubernetesClient client = recordingClient();
		try {
			InformerContexts.runner(() -> client)
				.withPropertyValues("informer.resources.configmaps.api-version=v1",
						"informer.resources.configmaps.kind=ConfigMap",
						"informer.resources.configmaps.namespaces=" + NAMESPACE, "informer.compress-lists=" + compress)
				.run((context) -> {
					assertThat(context).hasNotFailed();
					Map<String, String> cached = context.getBean(InformerRegistry.class)
						.cache("configmaps", ConfigMap.class)
						.list()
						.stream()
						.collect(Collectors.toMap((cm) -> cm.getMetadata().getName(),
								(cm) -> cm.getMetadata().getResourceVersion() + cm.getData()));
					Map<String, String> server = admin.configMaps()
						.inNamespace(NAMESPACE)
						.list()
						.getItems()
						.stream()
						.collect(Collectors.toMap((cm) -> cm.getMetadata().getName(),
								(cm) -> cm.getMetadata().getResourceVersion() + cm.getData()));
					assertThat(cached).hasSize(OBJECTS).isEqualTo(server);
				});
		}
		finally {
			client.close();
		}
		if (compress) {
			assertThat(this.encodings).as("encodings of the list responses").contains("list gzip");
		}
		else {
			assertThat(this.encodings).as("encodings of the list responses")
				.isNotEmpty()
				.allMatch("list identity"::equals);
		}
	}

	/**
	 * A client whose HTTP client records the encoding of each list response of the
	 * namespace; the informer's derived client shares its interceptors.
	 */
	private KubernetesClient recordingClient() {
		Interceptor recorder = new Interceptor() {

			@Override
			public void after(HttpRequest request, HttpResponse<?> response,
					AsyncBody.Consumer<List<java.nio.ByteBuffer>> consumer) {
				String query = request.uri().getRawQuery();
				if (request.uri().getPath().endsWith("/namespaces/" + NAMESPACE + "/configmaps")
						&& (query == null || !query.contains("watch=true"))) {
					String encoding = response.header("Content-Encoding");
					CompressedListsIT.this.encodings.add("list " + ((encoding != null) ? encoding : "identity"));
				}
			}

		};
		return new KubernetesClientBuilder().withConfig(admin.getConfiguration())
			.withHttpClientBuilderConsumer((builder) -> builder.addOrReplaceInterceptor("it-recorder", recorder))
			.build();
	}

}
