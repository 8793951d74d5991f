package dev.informer.reliability;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.autoconfigure.health.InformerHealthContributorAutoConfiguration;
import dev.informer.test.InformerContexts;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.describe;
import static dev.informer.reliability.FaultServer.event;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.relistPath;
import static dev.informer.reliability.FaultServer.watchPath;
import static dev.informer.reliability.FaultServer.withInformer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A watch event that cannot be read and cannot be skipped (fault matrix row 13, in part:
 * an object without a resourceVersion to go on from; one that does not decode is skipped,
 * see {@link UndecodableObjectTests}). fabric8 closes the watch with a
 * {@code WatcherException}; the starter's handler counts it and fabric8 relists.
 * Replacing an informer that fabric8 stopped is covered where that replacement lives.
 */
class UnreadableEventTests {

	private static final String NS = "drift";

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	private final ApplicationContextRunner runner = this.faults.configMaps(NS)
		.withConfiguration(AutoConfigurations.of(InformerHealthContributorAutoConfiguration.class));

	@Test
	void anEventThatDoesNotDeserializeIsCountedAndSurfacedAndLaterEventsStillArrive() {
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1")));
		// data must be a map of strings: a ConfigMap cannot hold this list; and without a
		// resourceVersion the watch cannot go on past it (an object that does not
		// decode but has one is skipped: UndecodableObjectTests)
		String drifted = "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
				+ "{\"name\":\"a\",\"namespace\":\"" + NS + "\"},\"data\":[\"drifted\"]}}";
		this.faults.watchStaysOpen(watchPath(NS, "10"), drifted);
		this.faults.lists(relistPath(NS), list("20", cm(NS, "a", "12"), cm(NS, "d", "13")));
		this.faults.watchStaysOpen(watchPath(NS, "20"), event("ADDED", cm(NS, "e", "21")));
		this.runner.run(withInformer((context, listener, informer, status) -> {
			HealthIndicator health = InformerContexts.health(context);
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
		}));
	}

}
