package dev.informer.reliability;

import java.time.Duration;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretListBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import dev.informer.endpoint.InformersEndpoint;
import dev.informer.health.InformersHealthContributor;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Secret watch event that does not deserialize: fabric8 puts the raw event, Secret data
 * included, into the exception it closes the watch with. The data must reach none of the
 * log, health, the {@code informers} endpoint or the watch's last error. Run as an
 * application runs (logging configured by Spring Boot, with the starter's defaults).
 */
@ExtendWith(OutputCaptureExtension.class)
class SecretRedactionTests {

	private static final String NS = "vault";

	/** base64 of a password: what a Secret's data holds. */
	private static final String SECRET = "aHVudGVyMi1zM2NyM3QtN2YzYQ==";

	@AutoClose
	private final FaultServer faults = FaultServer.serving("secrets", "Secret");

	@Test
	void aSecretThatDoesNotDeserializeLeavesNoTrace(CapturedOutput output) {
		// immutable must be a boolean: Jackson's message quotes the value it could not
		// read; without a resourceVersion the object cannot be skipped, so fabric8 closes
		// the watch (a skipped one leaves no trace either: UndecodableObjectTests)
		assertNoTrace(output,
				"{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Secret\","
						+ "\"metadata\":{\"name\":\"db\",\"namespace\":\"" + NS + "\"}," + "\"immutable\":\"" + SECRET
						+ "\",\"data\":{\"password\":\"" + SECRET + "\"}}}");
	}

	@Test
	void anEventWithoutAnObjectLeavesNoTrace(CapturedOutput output) {
		// fabric8 closes the watch with "Invalid object
		// received: <the raw event>", no Jackson error
		assertNoTrace(output, "{\"type\":\"MODIFIED\",\"object\":null,\"data\":{\"password\":\"" + SECRET + "\"}}");
	}

	private void assertNoTrace(CapturedOutput output, String unreadable) {
		this.faults.lists(path("?resourceVersion=0"), list("10"));
		this.faults.watchCloses(watchPath("10"), unreadable);
		this.faults.lists(path(""), list("20"));
		this.faults.watchStaysOpen(watchPath("20"));
		try (ConfigurableApplicationContext context = run()) {
			Watch status = context.getBean(DefaultInformerRegistry.class).informer("secrets").getWatches().get(0);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(status.snapshot().lists().relistCount(RelistReason.ERROR)).isOne());
			await().atMost(Duration.ofSeconds(10)).until(() -> this.faults.count(watchPath("20")) == 1);
			assertThat(status.getLastError()).isNotNull();
			assertThat(status.getLastError().toString()).doesNotContain(SECRET);
			HealthIndicator health = (HealthIndicator) context.getBean(InformersHealthContributor.class)
				.getContributor("secrets");
			assertThat(health.health().getDetails()).containsKey("lastError");
			assertThat(health.health().getDetails().toString()).doesNotContain(SECRET);
			assertThat(context.getBean(InformersEndpoint.class).informers().toString()).contains("lastError")
				.doesNotContain(SECRET);
			// the starter logged the failure, without the data
			assertThat(output).contains("Informer 'secrets' in namespace " + NS + ": ");
		}
		assertThat(output).doesNotContain(SECRET);
	}

	private ConfigurableApplicationContext run() {
		KubernetesClient client = this.faults.client();
		return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
			.initializers((context) -> context.getBeanFactory().registerSingleton("kubernetesClient", client))
			.properties("informer.resources.secrets.api-version=v1", "informer.resources.secrets.kind=Secret",
					"informer.resources.secrets.namespaces=" + NS,
					"management.endpoints.web.exposure.include=informers")
			.run();
	}

	private static String path(String query) {
		return "/api/v1/namespaces/" + NS + "/secrets" + query;
	}

	private static String watchPath(String resourceVersion) {
		return path("?allowWatchBookmarks=true&resourceVersion=" + resourceVersion + "&timeoutSeconds=600&watch=true");
	}

	private static Object list(String resourceVersion) {
		Secret other = new SecretBuilder().withNewMetadata()
			.withName("other")
			.withNamespace(NS)
			.withResourceVersion("5")
			.endMetadata()
			.addToData("token", "bm90LXRoZS1vbmU=")
			.build();
		return new SecretListBuilder().withNewMetadata()
			.withResourceVersion(resourceVersion)
			.endMetadata()
			.withItems(other)
			.build();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class App {

	}

}
