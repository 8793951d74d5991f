package dev.informer.reliability;

import java.time.Duration;
import java.util.Map;

import io.fabric8.kubernetes.api.model.WatchEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.autoconfigure.health.InformerHealthContributorAutoConfiguration;
import dev.informer.health.InformersHealthContributor;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.test.InformerContexts;
import dev.informer.test.RecordingListener;
import dev.informer.watch.Watch;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.describe;
import static dev.informer.reliability.FaultServer.event;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.relistPath;
import static dev.informer.reliability.FaultServer.watchPath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A watch event whose object does not deserialize (fault matrix row 13, in part: a CRD
 * whose schema drifted from the class). fabric8 closes the watch with a
 * {@code WatcherException}; the starter's handler counts it and fabric8 relists.
 * Replacing an informer that fabric8 stopped is covered where that replacement lives.
 */
class UnreadableEventTests {

	private static final String NS = "drift";

	private final FaultServer faults = FaultServer.start();

	private final ApplicationContextRunner runner = InformerContexts.runner(() -> this.faults.client())
		.withConfiguration(AutoConfigurations.of(InformerHealthContributorAutoConfiguration.class))
		.withBean(RecordingListener.class)
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=" + NS);

	@AfterEach
	void stopServer() {
		this.faults.close();
	}

	@Test
	void anEventThatDoesNotDeserializeIsCountedAndSurfacedAndLaterEventsStillArrive() {
		this.faults.server().expect().get().withPath(listPath(NS)).andReturn(200, list("10", cm(NS, "a", "1"))).once();
		// data must be a map of strings: a ConfigMap cannot hold this list
		String drifted = "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
				+ "{\"name\":\"a\",\"namespace\":\"" + NS + "\",\"resourceVersion\":\"11\"},\"data\":[\"drifted\"]}}";
		this.faults.server()
			.expect()
			.get()
			.withPath(watchPath(NS, "10"))
			.andUpgradeToWebSocket()
			.open()
			.waitFor(50)
			.andEmit(drifted)
			.expect("never sent")
			.andEmit(new WatchEvent(cm(NS, "unused", "0"), "BOOKMARK"))
			.once()
			.done()
			.once();
		this.faults.server()
			.expect()
			.get()
			.withPath(relistPath(NS))
			.andReturn(200, list("20", cm(NS, "a", "12"), cm(NS, "d", "13")))
			.once();
		this.faults.watchStaysOpen(watchPath(NS, "20"), event("ADDED", cm(NS, "e", "21")));
		this.runner.run((context) -> {
			RecordingListener listener = context.getBean(RecordingListener.class);
			ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
			Watch status = informer.getWatches().get(0);
			HealthIndicator health = (HealthIndicator) context.getBean(InformersHealthContributor.class)
				.getContributor("configmaps");
			await().atMost(Duration.ofSeconds(10)).until(() -> listener.resourceEvents().size() == 4);
			assertThat(describe(listener.resourceEvents())).containsExactly("added a 1", "updated a 12", "added d 13",
					"added e 21");
			assertThat(this.faults.paths()).containsExactly(listPath(NS), watchPath(NS, "10"), relistPath(NS),
					watchPath(NS, "20"));
			// counted as an error, and a relist for it
			assertThat(status.snapshot().lists().relists()).isEqualTo(Map.of("error", 1L));
			assertThat(status.getLastError().httpCode()).isZero();
			assertThat(status.getLastError().message()).isNotBlank();
			await().atMost(Duration.ofSeconds(5)).until(informer::isWatching);
			Health current = health.health();
			assertThat(current.getStatus()).isEqualTo(Status.UP);
			assertThat(current.getDetails()).containsKey("lastError");
			assertThat(current.getDetails().get("relists")).isEqualTo(Map.of("error", 1L));
		});
	}

}
