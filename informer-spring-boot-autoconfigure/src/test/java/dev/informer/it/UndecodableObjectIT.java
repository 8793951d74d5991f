package dev.informer.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.event.EventListener;

import dev.informer.autoconfigure.health.InformerHealthContributorAutoConfiguration;
import dev.informer.health.InformersHealthContributor;
import dev.informer.autoconfigure.metrics.InformerMetricsAutoConfiguration;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.test.InformerContexts;
import dev.informer.test.TestResources;
import dev.informer.watch.UndecodableObject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A typed informer over a CRD whose schema drifted ahead of the Java class, on the real
 * kube-apiserver (fault matrix row 29): {@link Dial}'s {@code spec.level} is an
 * {@code int}, the CRD preserves any value. Ten valid Dials, then one with a string
 * there: the informer goes on (later updates of the ten arrive, a relist succeeds),
 * health, the undecodable objects and the gauge name the one skipped (never its value),
 * and once it is fixed it is delivered. The oracle is the contract's map: a listener that
 * applies what it receives holds the server's objects that decode.
 */
@ExtendWith(OutputCaptureExtension.class)
class UndecodableObjectIT {

	private static final String NAMESPACE = "it-undecodable";

	/** What the undecodable Dial holds where its class has an int: never reported. */
	private static final String VALUE = "s3cr3t-level-7f3a";

	private static RealApiServer server;

	private static KubernetesClient admin;

	@BeforeAll
	static void startServer() {
		server = RealApiServer.get();
		admin = server.adminClient();
		TestResources.createNamespaces(admin, NAMESPACE);
		TestResources.applyCrd(admin, "dials", "Dial");
	}

	@AfterAll
	static void closeClient() {
		if (admin != null) {
			admin.close();
		}
	}

	@Test
	void anObjectThatDoesNotDecodeIsSkippedAndNamedWhileTheOthersGoOnAndIsDeliveredOnceItDecodes(
			CapturedOutput output) {
		for (int i = 0; i < 10; i++) {
			dials().resource(dial("dial-" + i, i)).create();
		}
		InformerContexts.runner(() -> admin)
			.withConfiguration(AutoConfigurations.of(InformerHealthContributorAutoConfiguration.class,
					InformerMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.withBean(Levels.class)
			.withPropertyValues("informer.resources.dials.api-version=example.com/v1",
					"informer.resources.dials.kind=Dial", "informer.resources.dials.type=" + Dial.class.getName(),
					"informer.resources.dials.namespaces=" + NAMESPACE)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Levels levels = context.getBean(Levels.class);
				awaitEqualToServer(levels);
				assertThat(levels.levels()).hasSize(10);
				GenericKubernetesResource bad = dials().resource(dial("dial-bad", VALUE)).create();
				for (int i = 0; i < 10; i++) {
					setLevel("dial-" + i, 100 + i);
				}
				awaitEqualToServer(levels);
				assertThat(levels.levels()).containsEntry("dial-9", 109).doesNotContainKey("dial-bad");
				assertSkipped(context, output, bad.getMetadata().getResourceVersion());

				// a relist lists the undecodable object and still succeeds
				ResourceInformer<?> informer = informer(context);
				informer.relist().get(60, TimeUnit.SECONDS);
				setLevel("dial-0", 200);
				awaitEqualToServer(levels);
				assertThat(levels.levels()).containsEntry("dial-0", 200).doesNotContainKey("dial-bad");
				assertSkipped(context, output, bad.getMetadata().getResourceVersion());

				// fixed: the first version that decodes is delivered
				setLevel("dial-bad", 7);
				awaitEqualToServer(levels);
				assertThat(levels.levels()).containsEntry("dial-bad", 7).hasSize(11);
				await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(undecodable(context)).isEmpty());
				assertThat(gauge(context)).isZero();
				assertThat(health(context).getDetails()).doesNotContainKey("undecodable");
			});
		assertThat(output).doesNotContain(VALUE);
	}

	private static void assertSkipped(AssertableApplicationContext context, CapturedOutput output,
			String resourceVersion) {
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(undecodable(context)).singleElement().satisfies((skipped) -> {
				assertThat(skipped.kind()).isEqualTo("Dial");
				assertThat(skipped.namespace()).isEqualTo(NAMESPACE);
				assertThat(skipped.name()).isEqualTo("dial-bad");
				assertThat(skipped.uid()).isNotNull();
				assertThat(skipped.resourceVersion()).isEqualTo(resourceVersion);
				assertThat(skipped.fieldPath()).isEqualTo("spec.level");
			}));
		Health health = health(context);
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails().get("undecodable").toString()).contains("Dial " + NAMESPACE + "/dial-bad")
			.contains("resourceVersion " + resourceVersion)
			.doesNotContain(VALUE);
		assertThat(gauge(context)).isEqualTo(1.0);
		assertThat(output).contains("skipped Dial " + NAMESPACE + "/dial-bad").doesNotContain(VALUE);
	}

	private static List<UndecodableObject> undecodable(AssertableApplicationContext context) {
		return informer(context).getWatches().get(0).snapshot().errors().undecodable();
	}

	private static ResourceInformer<?> informer(AssertableApplicationContext context) {
		return context.getBean(DefaultInformerRegistry.class).informer("dials");
	}

	private static double gauge(AssertableApplicationContext context) {
		return context.getBean(MeterRegistry.class)
			.get("informer.objects.undecodable")
			.tag("informer", "dials")
			.tag("k8s.namespace.name", NAMESPACE)
			.gauge()
			.value();
	}

	private static Health health(AssertableApplicationContext context) {
		return ((HealthIndicator) context.getBean(InformersHealthContributor.class).getContributor("dials")).health();
	}

	/**
	 * Wait until the listener's map is the server's Dials that decode, by name.
	 */
	private static void awaitEqualToServer(Levels levels) {
		await().atMost(Duration.ofSeconds(60))
			.untilAsserted(() -> assertThat(levels.levels()).as("the listener's map against the server")
				.isEqualTo(serverLevels()));
	}

	private static Map<String, Integer> serverLevels() {
		Map<String, Integer> levels = new TreeMap<>();
		for (GenericKubernetesResource dial : dials().list().getItems()) {
			Object value = dial.get("spec", "level");
			if (value instanceof Integer level) {
				levels.put(dial.getMetadata().getName(), level);
			}
		}
		return levels;
	}

	private static void setLevel(String name, Object level) {
		dials().withName(name).edit((dial) -> {
			dial.setAdditionalProperty("spec", Map.of("level", level));
			return dial;
		});
	}

	private static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> dials() {
		return admin.genericKubernetesResources("example.com/v1", "Dial").inNamespace(NAMESPACE);
	}

	private static GenericKubernetesResource dial(String name, Object level) {
		return new GenericKubernetesResourceBuilder().withApiVersion("example.com/v1")
			.withKind("Dial")
			.withNewMetadata()
			.withNamespace(NAMESPACE)
			.withName(name)
			.endMetadata()
			.withAdditionalProperties(Map.of("spec", Map.of("level", level)))
			.build();
	}

	/**
	 * A listener as the contract describes it: adds (replayed ones too) and updates put,
	 * deletes remove; the map holds each Dial's level by name.
	 */
	static class Levels {

		private final Map<String, Integer> levels = new ConcurrentHashMap<>();

		@EventListener
		void on(ResourceAddedEvent<Dial> event) {
			this.levels.put(event.getName(), event.getResource().getSpec().getLevel());
		}

		@EventListener
		void on(ResourceUpdatedEvent<Dial> event) {
			this.levels.put(event.getName(), event.getResource().getSpec().getLevel());
		}

		@EventListener
		void on(ResourceDeletedEvent<Dial> event) {
			this.levels.remove(event.getName());
		}

		Map<String, Integer> levels() {
			return new TreeMap<>(this.levels);
		}

	}

}
