package dev.informer.sample;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

import dev.informer.InformerRegistry;
import dev.informer.ResourceCache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample application in demo mode, run as {@link TestSampleApplication} runs it (on a
 * random port): the log names the embedded server, every event type, a resync and a
 * relist show within 30 seconds, {@code /widgets} answers from the cache, actuator
 * endpoints are exposed (the {@code informers} endpoint read-only), and closing the
 * context stops the embedded server.
 */
@ExtendWith(OutputCaptureExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class DemoModeScenario {

	/** What the issue promises a first-time user; a little slack for a busy machine. */
	static final Duration WITHIN = Duration.ofSeconds(30 + 5);

	private static ConfigurableApplicationContext context;

	private static RestClient http;

	private static URI masterUrl;

	static void start(String mode) {
		context = TestSampleApplication.demo().run("--server.port=0", "--demo=" + mode).getApplicationContext();
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		http = RestClient.create("http://127.0.0.1:" + port);
		masterUrl = URI.create(context.getBean(DemoApiServer.class).client().getMasterUrl().toString());
	}

	@AfterAll
	static void close() {
		if (context != null) {
			context.close();
		}
	}

	/** The words the start-up log uses for the embedded server. */
	abstract String serverKind();

	@Test
	@Order(1)
	void logNamesTheEmbeddedServerKind(CapturedOutput output) {
		assertThat(output.getOut()).contains("DEMO MODE: this run uses an embedded API server at " + masterUrl)
			.contains(serverKind());
		assertThat(output.getOut()).contains("DEMO MODE on " + context.getBean(DemoApiServer.class).describe());
	}

	@Test
	@Order(2)
	void logsWhereToLookWithTheActualPort(CapturedOutput output) {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		for (String path : List.of("/actuator/health", "/actuator/informers", "/actuator/prometheus", "/widgets")) {
			assertThat(output.getOut()).contains("http://localhost:" + port + path + " ");
		}
	}

	@Test
	@Order(3)
	void everyEventTypeAResyncAndARelistShowWithin30Seconds(CapturedOutput output) {
		List<String> expected = List.of("informer=configmaps type=added", "informer=configmaps type=updated",
				"informer=configmaps type=deleted", "informer=configmaps type=resync", "informer=pods type=added",
				"informer=pods type=updated", "informer=pods type=deleted", "informer=widgets type=added",
				"informer=widgets type=updated", "informer=widgets type=deleted", "informer=namespaces type=added",
				"informer=namespaces type=updated", "team-a changed: ", "widgets in cache by color: ",
				"DEMO: relisting informer 'configmaps'");
		await().atMost(WITHIN).untilAsserted(() -> assertThat(output.getOut()).contains(expected));
		// one structured line per event: informer, type, namespace/name, resourceVersion
		assertThat(output.getOut())
			.containsPattern("informer=widgets type=updated object=default/gizmo resourceVersion=\\d+");
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(relists("configmaps")).isPositive());
	}

	/**
	 * The ConfigMap informer's label selector ('app in (web,api)') holds in the demo: a
	 * real API server evaluates it, so default/unrelated (app=batch) exists but never
	 * reaches the cache; fabric8's mock does not evaluate set-based selectors, so the
	 * demo creates no such object there and says why.
	 */
	@Test
	@Order(4)
	void theLabelSelectorHoldsOnEitherServer(CapturedOutput output) {
		DemoApiServer server = context.getBean(DemoApiServer.class);
		ResourceCache<ConfigMap> configMaps = context.getBean(InformerRegistry.class)
			.cache("configmaps", ConfigMap.class);
		await().atMost(WITHIN).untilAsserted(() -> assertThat(configMaps.list()).isNotEmpty());
		assertThat(configMaps.list()).extracting((configMap) -> configMap.getMetadata().getLabels().get("app"))
			.allMatch((app) -> "web".equals(app) || "api".equals(app));
		ConfigMap unrelated = server.client().configMaps().inNamespace("default").withName("unrelated").get();
		if (server.isReal()) {
			assertThat(unrelated).as("default/unrelated on the real server").isNotNull();
		}
		else {
			assertThat(unrelated).as("default/unrelated on the mock").isNull();
			assertThat(output.getOut()).contains("fabric8's mock API server does not evaluate label selectors");
		}
	}

	@Test
	@Order(4)
	void widgetsAnswersFromTheCache() {
		List<Map<String, Object>> widgets = http.get()
			.uri("/widgets")
			.retrieve()
			.body(new ParameterizedTypeReference<>() {
			});
		assertThat(widgets).extracting((widget) -> widget.get("namespace") + "/" + widget.get("name"))
			.contains("default/gizmo", "team-a/sprocket");
		assertThat(widgets).allSatisfy((widget) -> assertThat(widget).containsKeys("color", "resourceVersion"));
	}

	@Test
	@Order(5)
	void actuatorExposesReadinessInformersAndPrometheus() {
		Map<String, Object> readiness = http.get().uri("/actuator/health/readiness").retrieve().body(MAP);
		assertThat(readiness).containsEntry("status", "UP");
		assertThat(readiness.toString()).contains("informers");
		Map<String, Object> informers = http.get().uri("/actuator/informers").retrieve().body(MAP);
		assertThat(informers.toString()).contains("configmaps", "pods", "namespaces", "widgets");
		String prometheus = http.get().uri("/actuator/prometheus").retrieve().body(String.class);
		assertThat(prometheus).contains("informer_events_total{", "informer=\"widgets\"", "informer_relists_total{");
	}

	@Test
	@Order(6)
	void theInformersEndpointRefusesARelistOnTheApplicationPort() {
		HttpStatusCode status = http.post()
			.uri("/actuator/informers/configmaps")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"action\":\"relist\"}")
			.exchange((request, response) -> response.getStatusCode());
		// only the read operations are mapped: the write operation's POST is not allowed
		assertThat(status).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
	}

	@Test
	@Order(100)
	void closingStopsTheEmbeddedServer(CapturedOutput output) {
		context.close();
		assertThat(output.getOut()).contains("Stopping the demo API server");
		await().atMost(Duration.ofSeconds(30)).until(() -> !accepts(masterUrl));
	}

	static long relists(String informer) {
		Map<String, Object> body = http.get().uri("/actuator/informers/" + informer).retrieve().body(MAP);
		@SuppressWarnings("unchecked")
		List<Map<String, Object>> watches = (List<Map<String, Object>>) body.get("watches");
		long total = 0;
		for (Map<String, Object> watch : watches) {
			Object relists = watch.get("relists");
			if (relists instanceof Map<?, ?> byReason && byReason.get("manual") instanceof Number manual) {
				total += manual.longValue();
			}
		}
		return total;
	}

	static boolean accepts(URI url) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(url.getHost(), url.getPort()), 1000);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	static ConfigurableApplicationContext context() {
		return context;
	}

	private static final ParameterizedTypeReference<Map<String, Object>> MAP = new ParameterizedTypeReference<>() {
	};

}
