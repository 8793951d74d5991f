package dev.informer.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.autoconfigure.endpoint.InformerEndpointAutoConfiguration;
import dev.informer.autoconfigure.health.InformerHealthContributorAutoConfiguration;
import dev.informer.autoconfigure.metrics.InformerMetricsAutoConfiguration;
import dev.informer.endpoint.InformersEndpoint;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.kinds.InformerOperations;
import dev.informer.test.InformerContexts;
import dev.informer.test.RecordingListener;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.describe;
import static dev.informer.reliability.FaultServer.event;
import static dev.informer.reliability.FaultServer.gone;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.relistPath;
import static dev.informer.reliability.FaultServer.watchPath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One object of many that does not decode into the informer's class (fault matrix row 29:
 * a CRD whose schema drifted ahead of the Java class). It is skipped and named (kind,
 * namespace, name, uid, resourceVersion and field path, never its content) while the
 * others keep flowing, in a list and on the watch alike; a later version that decodes is
 * delivered. Checked as a user's listener sees it: the events, health and the
 * {@code informers} endpoint.
 */
@ExtendWith(OutputCaptureExtension.class)
class UndecodableObjectTests {

	private static final String NS = "drift";

	private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

	/** base64 of a password: what a Secret's data holds. */
	private static final String SECRET = "aHVudGVyMi1zM2NyM3QtN2YzYQ==";

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	private final ApplicationContextRunner runner = this.faults.configMaps(NS)
		.withConfiguration(AutoConfigurations.of(InformerHealthContributorAutoConfiguration.class,
				InformerEndpointAutoConfiguration.class, InformerMetricsAutoConfiguration.class,
				MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=informers");

	@Test
	void aListWithAnObjectThatDoesNotDecodeDeliversTheOthersAndKeepsWatching(CapturedOutput output) {
		this.faults.lists(listPath(NS),
				listJson("10", json(cm(NS, "a", "1")), undecodable("b", "2"), json(cm(NS, "c", "3"))));
		this.faults.watchStaysOpen(watchPath(NS, "10"), event("MODIFIED", cm(NS, "a", "11")));
		this.runner.run((context) -> {
			RecordingListener listener = InformerContexts.listener(context);
			await().atMost(Duration.ofSeconds(10)).until(() -> listener.resourceEvents().size() == 3);
			assertThat(describe(listener.resourceEvents())).containsExactly("added a 1", "added c 3", "updated a 11");
			ResourceInformer<?> informer = informer(context);
			assertThat(informer.isSynced()).isTrue();
			assertThat(informer.getCache().list()).extracting((object) -> object.getMetadata().getName())
				.containsExactlyInAnyOrder("a", "c");
			// no relist: the watch resumed from the list
			assertThat(this.faults.paths()).containsExactly(listPath(NS), watchPath(NS, "10"));
			assertNamed(context, output, "b", "2");
		});
		assertThat(output).doesNotContain(SECRET);
	}

	@Test
	void aWatchEventWhoseObjectDoesNotDecodeIsSkippedAndTheWatchGoesOn(CapturedOutput output) {
		this.faults.lists(listPath(NS), listJson("10", json(cm(NS, "a", "1")), json(cm(NS, "c", "2"))));
		this.faults.watchStaysOpen(watchPath(NS, "10"), eventJson("ADDED", undecodable("b", "11")),
				event("MODIFIED", cm(NS, "c", "12")));
		this.runner.run((context) -> {
			RecordingListener listener = InformerContexts.listener(context);
			await().atMost(Duration.ofSeconds(10)).until(() -> listener.resourceEvents().size() == 3);
			assertThat(describe(listener.resourceEvents())).containsExactly("added a 1", "added c 2", "updated c 12");
			ResourceInformer<?> informer = informer(context);
			// the skipped object's version was taken: a resumed watch starts after it
			await().atMost(Duration.ofSeconds(5))
				.until(() -> "12".equals(informer.getWatches().get(0).snapshot().cache().lastResourceVersion()));
			assertThat(this.faults.paths()).containsExactly(listPath(NS), watchPath(NS, "10"));
			assertNamed(context, output, "b", "11");
		});
		assertThat(output).doesNotContain(SECRET);
	}

	@Test
	void anObjectThatStopsDecodingIsAbsentUntilAVersionOfItDecodesOnTheWatchAndInARelistAlike() {
		this.faults.lists(listPath(NS), listJson("10", json(cm(NS, "a", "1")), json(cm(NS, "b", "2"))));
		this.faults.watchCloses(watchPath(NS, "10"), eventJson("MODIFIED", undecodable("a", "11")),
				event("MODIFIED", cm(NS, "a", "12")), eventJson("MODIFIED", undecodable("b", "13")), gone());
		// the relist still finds b undecodable, and a fixed
		this.faults.lists(relistPath(NS), listJson("20", json(cm(NS, "a", "12")), undecodable("b", "13")));
		this.faults.watchStaysOpen(watchPath(NS, "20"), event("MODIFIED", cm(NS, "b", "21")));
		this.runner.run((context) -> {
			RecordingListener listener = InformerContexts.listener(context);
			await().atMost(Duration.ofSeconds(10)).until(() -> listener.resourceEvents().size() == 6);
			// a delete with final state unknown when it stops decoding, an add when a
			// version of it decodes again
			assertThat(describe(listener.resourceEvents())).containsExactly("added a 1", "added b 2",
					"deleted a 1 unknown", "added a 12", "deleted b 2 unknown", "added b 21");
			// each delete carries the last state listeners saw, exactly as they saw it,
			// and the version at which the object stopped decoding
			assertThat(listener.resourceEvents()).filteredOn(ResourceDeletedEvent.class::isInstance)
				.map((event) -> ((ResourceDeletedEvent<?>) event).getObservedResourceVersion())
				.containsExactly("11", "13");
			assertThat(informer(context).getCache().list()).extracting((object) -> object.getMetadata().getName())
				.containsExactlyInAnyOrder("a", "b");
			Health health = health(context);
			assertThat(health.getDetails()).doesNotContainKey("undecodable");
		});
	}

	private void assertNamed(AssertableApplicationContext context, CapturedOutput output, String name,
			String resourceVersion) {
		Health health = health(context);
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		@SuppressWarnings("unchecked")
		Map<String, Object> undecodable = (Map<String, Object>) health.getDetails().get("undecodable");
		assertThat(undecodable).containsEntry("count", 1);
		assertThat(undecodable.get("objects").toString()).contains("ConfigMap " + NS + "/" + name)
			.contains("uid-" + name)
			.contains("resourceVersion " + resourceVersion)
			.contains("immutable");
		assertThat(health.getDetails().toString()).doesNotContain(SECRET);
		String endpoint = context.getBean(InformersEndpoint.class).informers().toString();
		assertThat(endpoint).contains("undecodable").contains(NS + "/" + name).doesNotContain(SECRET);
		assertThat(context.getBean(MeterRegistry.class)
			.get("informer.objects.undecodable")
			.tag("informer", "configmaps")
			.tag("k8s.namespace.name", NS)
			.gauge()
			.value()).isEqualTo(1.0);
		assertThat(output)
			.contains("Informer 'configmaps' in namespace " + NS + ": skipped ConfigMap " + NS + "/" + name);
	}

	/**
	 * The watch a replica opens to catch up on the deletes of objects it takes over
	 * ({@code Takeovers}) reads the same objects: one that does not decode is passed, and
	 * a delete of one is found when its last decoded state is cached, as the informer's
	 * own watch does. Before, the first such object failed the whole catch-up, and every
	 * delete it would have found was lost (found by {@code FaultScheduleIT} seed 951,
	 * sharded: "could not catch up ... cannot deserialize").
	 */
	@Test
	void aCatchUpOnDeletesGoesPastAnObjectThatDoesNotDecode() throws Exception {
		String path = relistPath(NS) + "?allowWatchBookmarks=true&resourceVersion=10&watch=true";
		this.faults.watchStaysOpen(path, eventJson("MODIFIED", undecodable("b", "11")),
				event("DELETED", cm(NS, "a", "12")), eventJson("DELETED", undecodable("d", "13")),
				event("MODIFIED", cm(NS, "c", "14")));
		InformerDefinition<ConfigMap> definition = configMaps();
		Map<String, ConfigMap> cached = Map.of(NS + "/d", cm(NS, "d", "9"));
		List<ConfigMap> deleted = InformerOperations
			.deletedSince(this.faults.client(), definition, NS, null, "10", "14", Duration.ofSeconds(10), cached::get)
			.get(10, TimeUnit.SECONDS);
		assertThat(deleted).extracting((configMap) -> configMap.getMetadata().getName()).containsExactly("a", "d");
		assertThat(deleted.get(1).getMetadata().getResourceVersion()).isEqualTo("13");
	}

	/**
	 * The API server's current resourceVersion, read by a list of one object (what a
	 * takeover catches up to, what staleness compares with), whatever that object is.
	 */
	@Test
	void theServersResourceVersionIsReadEvenWhenTheOneObjectListedDoesNotDecode() {
		this.faults.lists(relistPath(NS) + "?limit=1", listJson("42", undecodable("b", "41")));
		assertThat(InformerOperations.currentResourceVersion(this.faults.client(), configMaps(), NS)).isEqualTo("42");
	}

	private static InformerDefinition<ConfigMap> configMaps() {
		return new InformerDefinition<>(
				InformerDeclaration.builder("configmaps").apiVersion("v1").kind("ConfigMap").build(), ConfigMap.class,
				"configmaps", true);
	}

	private static ResourceInformer<?> informer(AssertableApplicationContext context) {
		return InformerContexts.informer(context);
	}

	private static Health health(AssertableApplicationContext context) {
		return InformerContexts.health(context).health();
	}

	/**
	 * A ConfigMap whose {@code immutable} holds a string, as a CRD drifted ahead of its
	 * class would: Jackson's message quotes the value it cannot read.
	 */
	private static String undecodable(String name, String resourceVersion) {
		return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\""
				+ NS + "\",\"uid\":\"uid-" + name + "\",\"resourceVersion\":\"" + resourceVersion
				+ "\"},\"immutable\":\"" + SECRET + "\",\"data\":{\"password\":\"" + SECRET + "\"}}";
	}

	private static String json(ConfigMap configMap) {
		return SERIALIZATION.asJson(configMap);
	}

	private static String listJson(String resourceVersion, String... items) {
		return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\",\"metadata\":{\"resourceVersion\":\""
				+ resourceVersion + "\"},\"items\":[" + String.join(",", items) + "]}";
	}

	private static String eventJson(String type, String object) {
		return "{\"type\":\"" + type + "\",\"object\":" + object + "}";
	}

}
