package dev.informer.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.autoconfigure.health.InformerHealthContributorAutoConfiguration;
import dev.informer.test.InformerContexts;
import dev.informer.watch.RelistReason;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.describe;
import static dev.informer.reliability.FaultServer.event;
import static dev.informer.reliability.FaultServer.isWatch;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.relistPath;
import static dev.informer.reliability.FaultServer.watchPath;
import static dev.informer.reliability.FaultServer.withInformer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Watches the server closes (fault matrix rows 7, 8, 20 and 21): fabric8 resumes from the
 * last resourceVersion it saw, relists only when the close looks like a rejected version,
 * and listeners never see an object twice. Row 23 (periodic closes do not flap health) is
 * {@code InformerHealthWatchReconnectTests}.
 */
class WatchCloseTests {

	private static final String NS = "closes";

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	private final ApplicationContextRunner runner = this.faults.configMaps(NS)
		.withConfiguration(AutoConfigurations.of(InformerHealthContributorAutoConfiguration.class));

	@Test
	void aStreamEndedAfterEventsResumesFromTheLastResourceVersionWithoutRelist() {
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1"), cm(NS, "b", "2")));
		this.faults.watchCloses(watchPath(NS, "10"), event("MODIFIED", cm(NS, "a", "11")),
				event("ADDED", cm(NS, "c", "12")));
		this.faults.watchStaysOpen(watchPath(NS, "12"));
		this.runner.run(withInformer((context, listener, informer, status) -> {
			HealthIndicator health = InformerContexts.health(context);
			List<Status> seen = new CopyOnWriteArrayList<>();
			await().atMost(Duration.ofSeconds(10)).until(() -> {
				seen.add(health.health().getStatus());
				return this.faults.paths().contains(watchPath(NS, "12")) && informer.isWatching();
			});
			// a quiet second on the resumed watch: nothing more happens
			await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> {
				seen.add(health.health().getStatus());
				return true;
			});
			assertThat(seen).containsOnly(Status.UP);
			assertThat(this.faults.paths()).containsExactly(listPath(NS), watchPath(NS, "10"), watchPath(NS, "12"));
			assertThat(describe(listener.resourceEvents())).containsExactly("added a 1", "added b 2", "updated a 11",
					"added c 12");
			assertThat(status.snapshot().lists().relistCount()).isZero();
			assertThat(status.snapshot().cache().lastResourceVersion()).isEqualTo("12");
		}));
	}

	@Test
	void aStreamClosedWithoutAnyMessageIsTreatedAsGoneAndRelistsOnce() {
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1"), cm(NS, "b", "2")));
		// what GKE does to a watch from a version it
		// no longer has: closes at once, no message
		this.faults.watchCloses(watchPath(NS, "10"));
		this.faults.lists(relistPath(NS), list("11", cm(NS, "a", "1"), cm(NS, "b", "2")));
		this.faults.watchStaysOpen(watchPath(NS, "11"));
		this.runner.run(withInformer((context, listener, informer, status) -> {
			this.faults.awaitRequested(watchPath(NS, "11"));
			await().during(Duration.ofSeconds(2))
				.atMost(Duration.ofSeconds(4))
				.until(() -> status.snapshot().lists().relists().equals(Map.of("410", 1L)));
			assertThat(this.faults.paths()).containsExactly(listPath(NS), watchPath(NS, "10"), relistPath(NS),
					watchPath(NS, "11"));
			// the relist found the same versions: nothing to tell listeners
			assertThat(describe(listener.resourceEvents())).containsExactly("added a 1", "added b 2");
			assertThat(status.snapshot().lists().last().trigger()).isEqualTo(RelistReason.GONE);
			assertThat(status.snapshot().lists().last().items()).isEqualTo(2);
		}));
	}

	@Test
	void aBookmarkAdvancesTheResourceVersionWithoutAnEventAndTheNextWatchResumesFromIt() {
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1")));
		this.faults.watchCloses(watchPath(NS, "10"), event("BOOKMARK",
				new ConfigMapBuilder().withNewMetadata().withResourceVersion("15").endMetadata().build()));
		this.faults.watchStaysOpen(watchPath(NS, "15"));
		this.runner.run(withInformer((context, listener, informer, status) -> {
			this.faults.awaitRequested(watchPath(NS, "15"));
			assertThat(status.snapshot().cache().lastResourceVersion()).isEqualTo("15");
			await().during(Duration.ofMillis(500)).until(() -> listener.resourceEvents().size() == 1);
			assertThat(status.snapshot().events().byType()).isEqualTo(Map.of("added", 1L));
			assertThat(status.snapshot().lists().relistCount()).isZero();
			assertThat(this.faults.paths()).containsExactly(listPath(NS), watchPath(NS, "10"), watchPath(NS, "15"));
		}));
	}

	@Test
	void aReconnectReplayingAddedForKnownObjectsDeliversNoDuplicates() {
		// the mock's CRUD mode (like a watch without resourceVersion)
		// opens every watch with ADDED for each stored object; here
		// each reconnect replays the cache in that way
		this.faults.lists(listPath(NS), list("3", cm(NS, "a", "1"), cm(NS, "b", "2"), cm(NS, "c", "3")));
		this.faults.watchCloses(watchPath(NS, "3"), event("ADDED", cm(NS, "a", "1")), event("ADDED", cm(NS, "b", "2")),
				event("ADDED", cm(NS, "c", "3")));
		// b changed meanwhile: its replay carries the new version
		this.faults.watchCloses(watchPath(NS, "3"), event("ADDED", cm(NS, "a", "1")), event("ADDED", cm(NS, "c", "3")),
				event("ADDED", cm(NS, "b", "4")));
		for (int i = 0; i < 3; i++) {
			this.faults.watchCloses(watchPath(NS, "4"), event("ADDED", cm(NS, "a", "1")),
					event("ADDED", cm(NS, "c", "3")), event("ADDED", cm(NS, "b", "4")));
		}
		this.faults.watchStaysOpen(watchPath(NS, "4"));
		this.runner.run(withInformer((context, listener, informer, status) -> {
			await().atMost(Duration.ofSeconds(15)).until(() -> this.faults.count(watchPath(NS, "4")) == 4);
			await().during(Duration.ofMillis(500)).until(() -> listener.resourceEvents().size() == 4);
			assertThat(describe(listener.resourceEvents())).containsExactly("added a 1", "added b 2", "added c 3",
					"updated b 4");
			assertThat(this.faults.paths()).filteredOn((path) -> !isWatch(path)).containsExactly(listPath(NS));
			assertThat(status.snapshot().lists().relistCount()).isZero();
		}));
	}

}
