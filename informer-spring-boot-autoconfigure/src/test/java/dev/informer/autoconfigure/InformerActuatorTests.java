package dev.informer.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.web.servlet.client.EntityExchangeResult;
import org.springframework.test.web.servlet.client.RestTestClient;

import dev.informer.event.InformerStateChangedEvent;
import dev.informer.test.MockApiServer;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Health, readiness, Prometheus metrics and the {@code informers} endpoint over HTTP,
 * with an informer watching the mock API server.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "informer.resources.configmaps.api-version=v1", "informer.resources.configmaps.kind=ConfigMap",
				"informer.resources.configmaps.namespaces=obs",
				"management.endpoints.web.exposure.include=health,prometheus,informers",
				"management.endpoint.informers.access=unrestricted", "management.endpoint.health.show-details=always" })
@AutoConfigureRestTestClient
@DirtiesContext
class InformerActuatorTests {

	@Autowired
	private RestTestClient rest;

	@Autowired
	private HealthEndpointGroups groups;

	@Autowired
	private RecordingListener listener;

	@Autowired
	private Transitions transitions;

	@Test
	void healthReportsEachInformerWithItsState() {
		EntityExchangeResult<String> response = get("/actuator/health/informers");
		assertThat(response.getStatus()).isEqualTo(HttpStatus.OK);
		DocumentContext json = JsonPath.parse(response.getResponseBody());
		assertThat(json.read("$.status", String.class)).isEqualTo("UP");
		assertThat(json.read("$.components.configmaps.status", String.class)).isEqualTo("UP");
		Map<String, Object> details = json.read("$.components.configmaps.details");
		assertThat(details).containsEntry("state", "WATCHING")
			.containsEntry("kind", "ConfigMap")
			.containsEntry("namespace", "obs")
			.containsEntry("synced", true)
			.containsEntry("cacheSize", 2)
			.containsKeys("resourceVersion", "lastList", "reconnects", "relists", "listenerFailures", "backlog")
			.doesNotContainKey("data");
		assertThat(response.getResponseBody()).doesNotContain("secret-value");
	}

	@Test
	void informersJoinReadinessButNotLiveness() {
		assertThat(get("/actuator/health/readiness").getStatus()).isEqualTo(HttpStatus.OK);
		assertThat(get("/actuator/health/liveness").getStatus()).isEqualTo(HttpStatus.OK);
		assertThat(this.groups.get("readiness").isMember("informers")).isTrue();
		assertThat(this.groups.get("liveness").isMember("informers")).isFalse();
	}

	@Test
	void prometheusExportsTheInformerMeters() {
		await().untilAsserted(() -> assertThat(prometheus())
			.contains("informer_watching{informer=\"configmaps\",k8s_namespace_name=\"obs\"} 1"));
		assertThat(prometheus())
			.contains("informer_events_total{informer=\"configmaps\",k8s_namespace_name=\"obs\",type=\"added\"} 2")
			.contains("informer_cache_size_objects{informer=\"configmaps\",k8s_namespace_name=\"obs\"} 2")
			.contains("informer_synced{informer=\"configmaps\",k8s_namespace_name=\"obs\"} 1")
			.contains("informer_list_duration_seconds_count{informer=\"configmaps\",k8s_namespace_name=\"obs\"}")
			.contains("informer_listener_duration_seconds_count{informer=\"configmaps\",k8s_namespace_name=\"obs\","
					+ "type=\"added\"} 2")
			.contains("informer_relists_total{informer=\"configmaps\",k8s_namespace_name=\"obs\",reason=\"410\"} 0")
			.contains("informer_backlog_events{informer=\"configmaps\",k8s_namespace_name=\"obs\"} 0");
	}

	@Test
	void theInformersEndpointDescribesDeclarationAndState() {
		DocumentContext all = JsonPath.parse(get("/actuator/informers").getResponseBody());
		assertThat(all.read("$.informers.configmaps.status", String.class)).isEqualTo("UP");
		// every replica publishes everything: no delivery section, not even a null one
		Map<String, Object> root = all.read("$");
		assertThat(root).containsOnlyKeys("informers");
		EntityExchangeResult<String> one = get("/actuator/informers/configmaps");
		assertThat(one.getStatus()).isEqualTo(HttpStatus.OK);
		DocumentContext json = JsonPath.parse(one.getResponseBody());
		assertThat(json.read("$.declaration.kind", String.class)).isEqualTo("ConfigMap");
		assertThat(json.read("$.declaration.plural", String.class)).isEqualTo("configmaps");
		assertThat(json.<List<String>>read("$.declaration.namespaces")).containsExactly("obs");
		assertThat(json.read("$.declaration.resyncPeriod", String.class)).isEqualTo("PT0S");
		assertThat(json.read("$.cacheSize", Integer.class)).isEqualTo(2);
		assertThat(json.read("$.watches[0].status", String.class)).isEqualTo("UP");
		assertThat(json.read("$.watches[0].namespace", String.class)).isEqualTo("obs");
		assertThat(json.read("$.watches[0].lastList.items", Integer.class)).isEqualTo(2);
		assertThat(get("/actuator/informers/secrets").getStatus()).isEqualTo(HttpStatus.NOT_FOUND);
	}

	@Test
	void postingRelistRebuildsTheCacheWithoutEventsForUnchangedObjects() {
		int before = this.listener.resourceEvents().size();
		EntityExchangeResult<String> response = post("/actuator/informers/configmaps", "{\"action\":\"relist\"}");
		assertThat(response.getStatus()).isEqualTo(HttpStatus.ACCEPTED);
		assertThat(JsonPath.parse(response.getResponseBody()).read("$.outcome", String.class)).isEqualTo("started");
		await().untilAsserted(() -> {
			DocumentContext json = JsonPath.parse(get("/actuator/informers/configmaps").getResponseBody());
			assertThat(json.read("$.watches[0].relists.manual", Integer.class)).isEqualTo(1);
			assertThat(json.read("$.watches[0].lastList.trigger", String.class)).isEqualTo("manual");
			assertThat(json.read("$.watches[0].state", String.class)).isEqualTo("WATCHING");
		});
		assertThat(this.listener.resourceEvents()).hasSize(before);
		assertThat(this.transitions.changes).contains("WATCHING -> RELISTING", "RELISTING -> WATCHING");
		assertThat(post("/actuator/informers/configmaps", "{\"action\":\"restart\"}").getStatus())
			.isEqualTo(HttpStatus.BAD_REQUEST);
	}

	private String prometheus() {
		return get("/actuator/prometheus").getResponseBody();
	}

	private EntityExchangeResult<String> get(String path) {
		return this.rest.get().uri(path).exchange().returnResult(String.class);
	}

	private EntityExchangeResult<String> post(String path, String json) {
		return this.rest.post()
			.uri(path)
			.contentType(MediaType.APPLICATION_JSON)
			.body(json)
			.exchange()
			.returnResult(String.class);
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class App {

		@Bean(destroyMethod = "close")
		MockApiServer mockApiServer() {
			MockApiServer mock = MockApiServer.crud();
			ConfigMap secretLike = TestResources.configMap("obs", "a", "secret-value");
			mock.client().configMaps().resource(secretLike).create();
			ConfigMap last = mock.client().configMaps().resource(TestResources.configMap("obs", "b", "x")).create();
			// the watch is an expectation rather than a CRUD watch:
			// the mock stalls for 10 s when a client closes a CRUD
			// watch, which a relist does; it stays open until the end
			mock.server()
				.expect()
				.get()
				.withPath("/api/v1/namespaces/obs/configmaps?allowWatchBookmarks=true&resourceVersion="
						+ last.getMetadata().getResourceVersion() + "&timeoutSeconds=600&watch=true")
				.andUpgradeToWebSocket()
				.open()
				.expect("never sent")
				.andEmit(new WatchEvent(last, "MODIFIED"))
				.once()
				.done()
				.always();
			return mock;
		}

		@Bean(destroyMethod = "")
		KubernetesClient kubernetesClient(MockApiServer mock) {
			return mock.client();
		}

		@Bean
		RecordingListener recordingListener() {
			return new RecordingListener();
		}

		@Bean
		Transitions transitions() {
			return new Transitions();
		}

	}

	static class Transitions {

		final List<String> changes = new CopyOnWriteArrayList<>();

		@EventListener
		void on(InformerStateChangedEvent event) {
			this.changes.add(event.getPreviousState() + " -> " + event.getState());
		}

	}

}
