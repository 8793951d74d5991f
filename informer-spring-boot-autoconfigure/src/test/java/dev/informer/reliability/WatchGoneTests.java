package dev.informer.reliability;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

import dev.informer.InformerRegistry;
import dev.informer.InformerState;
import dev.informer.event.InformerStateChangedEvent;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.runtime.ResourceInformer;
import dev.informer.test.RecordingListener;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.describe;
import static dev.informer.reliability.FaultServer.event;
import static dev.informer.reliability.FaultServer.gone;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.relistPath;
import static dev.informer.reliability.FaultServer.status;
import static dev.informer.reliability.FaultServer.watchPath;
import static dev.informer.reliability.FaultServer.withInformer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The watch's resourceVersion expired (410 Gone) in the ways row 4
 * ({@code WatchFaultTests}) does not cover: as the HTTP status of the watch request (row
 * 5), with a relist that fails before it succeeds (row 6), and after objects were deleted
 * while the watch was down (row 22, the mock half; the real server replays deletions it
 * still has).
 */
class WatchGoneTests {

	private static final String NS = "gone";

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	private final ApplicationContextRunner runner = this.faults.configMaps(NS);

	@Test
	void goneAsTheHttpStatusOfTheWebSocketUpgradeRelistsLikeAGoneEvent() {
		// fabric8 fails the watch's start: the 410
		// reaches the informer's exception handler
		expectRowFourScenario(this.faults);
		this.faults.watchStaysOpen(watchPath(NS, "20"));
		this.runner.run(withInformer((context, listener, informer, status) -> {
			assertRowFourOutcome(this.faults, listener, informer, status);
			assertThat(status.getLastError().httpCode()).isEqualTo(410);
		}));
	}

	@Test
	void goneAsTheHttpStatusOfAPlainHttpWatchRelistsLikeAGoneEvent() {
		// with HTTP watches fabric8 turns the status
		// into a Gone close, as for an ERROR event
		try (FaultServer httpWatches = FaultServer.withHttpWatches()) {
			expectRowFourScenario(httpWatches);
			// an HTTP watch whose body comes only when the test is over
			ConfigMap atTwenty = new ConfigMapBuilder().withNewMetadata()
				.withResourceVersion("20")
				.endMetadata()
				.build();
			String bookmark = Serialization.asJson(event("BOOKMARK", atTwenty)) + "\n";
			httpWatches.server()
				.expect()
				.get()
				.delay(30, TimeUnit.SECONDS)
				.withPath(watchPath(NS, "20"))
				.andReturn(200, bookmark)
				.always();
			httpWatches.configMaps(NS).run(withInformer((context, listener, informer, status) -> {
				assertRowFourOutcome(httpWatches, listener, informer, status);
				assertThat(status.getLastError()).isNull();
			}));
		}
	}

	private static void expectRowFourScenario(FaultServer faults) {
		faults.lists(listPath(NS), list("10", cm(NS, "a", "1"), cm(NS, "b", "2"), cm(NS, "c", "3")));
		faults.fails(watchPath(NS, "10"), status(410, "Expired", "too old"), 1);
		faults.lists(relistPath(NS), list("20", cm(NS, "a", "1"), cm(NS, "b", "5"), cm(NS, "d", "11")));
	}

	private static void assertRowFourOutcome(FaultServer faults, RecordingListener listener,
			ResourceInformer<?> informer, Watch status) {
		faults.awaitRequested(watchPath(NS, "20"));
		await().during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(5))
			.until(() -> listener.resourceEvents().size() == 6);
		assertThat(describe(listener.resourceEvents().subList(0, 3))).containsExactly("added a 1", "added b 2",
				"added c 3");
		// no event for a, whose version did not change
		assertThat(describe(listener.resourceEvents().subList(3, 6))).containsExactlyInAnyOrder("updated b 5",
				"added d 11", "deleted c 3 unknown");
		assertThat(status.snapshot().lists().relists()).isEqualTo(Map.of("410", 1L));
		assertThat(status.snapshot().lists().last().trigger()).isEqualTo(RelistReason.GONE);
		assertThat(faults.paths()).containsExactly(listPath(NS), watchPath(NS, "10"), relistPath(NS),
				watchPath(NS, "20"));
		assertThat(names(informer.getCache().list())).isEqualTo("a@1 b@5 d@11");
	}

	@Test
	void aRelistThatFailsTwiceKeepsTheOldCacheAndThenDeliversEachChangeOnce() {
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1"), cm(NS, "b", "2"), cm(NS, "c", "3")));
		this.faults.watchCloses(watchPath(NS, "10"), gone());
		this.faults.fails(relistPath(NS), status(500, "InternalError", "etcd leader changed"), 2);
		this.faults.lists(relistPath(NS), list("20", cm(NS, "a", "1"), cm(NS, "b", "5"), cm(NS, "d", "11")));
		this.faults.watchStaysOpen(watchPath(NS, "20"));
		this.runner.withBean(CacheOnStateChange.class).run(withInformer((context, listener, informer, status) -> {
			this.faults.awaitRequested(watchPath(NS, "20"));
			await().during(Duration.ofMillis(500))
				.atMost(Duration.ofSeconds(5))
				.until(() -> listener.resourceEvents().size() == 6);
			assertThat(this.faults.paths()).containsExactly(listPath(NS), watchPath(NS, "10"), relistPath(NS),
					relistPath(NS), relistPath(NS), watchPath(NS, "20"));
			// what the application read from the cache at each state
			// change until the relist succeeded (a sample of the
			// closed watch may add RECONNECTING before RELISTING)
			List<String> snapshots = context.getBean(CacheOnStateChange.class).snapshots;
			assertThat(snapshots.get(0)).isEqualTo("WATCHING a@1 b@2 c@3");
			assertThat(snapshots.subList(1, snapshots.size() - 1))
				.contains("RELISTING a@1 b@2 c@3", "RECONNECTING a@1 b@2 c@3")
				.allSatisfy((snapshot) -> assertThat(snapshot).endsWith(" a@1 b@2 c@3"));
			assertThat(snapshots.get(snapshots.size() - 1)).isEqualTo("WATCHING a@1 b@5 d@11");
			assertThat(describe(listener.resourceEvents().subList(3, 6))).containsExactlyInAnyOrder("updated b 5",
					"added d 11", "deleted c 3 unknown");
			assertThat(listener.events(InformerSyncedEvent.class)).hasSize(1);
			// one relist, for 410, however many attempts it took
			assertThat(status.snapshot().lists().relists()).isEqualTo(Map.of("410", 1L));
			assertThat(status.snapshot().lists().last().trigger()).isEqualTo(RelistReason.GONE);
			assertThat(status.getLastError().httpCode()).isEqualTo(500);
			assertThat(status.snapshot().errors().consecutive()).isZero();
			assertThat(status.getState()).isEqualTo(InformerState.WATCHING);
		}));
	}

	@Test
	void anObjectDeletedWhileTheWatchWasDownIsDeletedWithFinalStateUnknownAfterTheRelist() {
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1"), cm(NS, "b", "2")));
		// the connection ends after one change; meanwhile
		// b is deleted and the history compacted
		this.faults.watchCloses(watchPath(NS, "10"), event("MODIFIED", cm(NS, "a", "11")));
		this.faults.watchCloses(watchPath(NS, "11"), gone());
		this.faults.lists(relistPath(NS), list("30", cm(NS, "a", "11")));
		this.faults.watchStaysOpen(watchPath(NS, "30"));
		this.runner.run(withInformer((context, listener, informer, status) -> {
			this.faults.awaitRequested(watchPath(NS, "30"));
			await().during(Duration.ofMillis(500))
				.atMost(Duration.ofSeconds(5))
				.until(() -> listener.resourceEvents().size() == 4);
			assertThat(describe(listener.resourceEvents())).containsExactly("added a 1", "added b 2", "updated a 11",
					"deleted b 2 unknown");
			// the deleted event carries the last state the cache had
			assertThat(listener.events(ResourceDeletedEvent.class)).singleElement()
				.satisfies((deleted) -> assertThat(((ConfigMap) deleted.getResource()).getData()).containsEntry("value",
						"v2"));
			assertThat(informer.getWatches().get(0).snapshot().lists().relists()).isEqualTo(Map.of("410", 1L));
			assertThat(this.faults.paths()).containsExactly(listPath(NS), watchPath(NS, "10"), watchPath(NS, "11"),
					relistPath(NS), watchPath(NS, "30"));
		}));
	}

	static String names(List<? extends HasMetadata> resources) {
		return resources.stream()
			.sorted(Comparator.comparing((HasMetadata resource) -> resource.getMetadata().getName()))
			.map((resource) -> resource.getMetadata().getName() + "@" + resource.getMetadata().getResourceVersion())
			.collect(Collectors.joining(" "));
	}

	/**
	 * Reads the cache whenever the watch changes state, as an application might.
	 */
	static class CacheOnStateChange {

		final List<String> snapshots = new CopyOnWriteArrayList<>();

		private final ObjectProvider<InformerRegistry> registry;

		CacheOnStateChange(ObjectProvider<InformerRegistry> registry) {
			this.registry = registry;
		}

		@EventListener
		void on(InformerStateChangedEvent event) {
			if (event.getState() != InformerState.LISTING) {
				this.snapshots.add(event.getState() + " "
						+ names(this.registry.getObject().cache("configmaps", ConfigMap.class).list()));
			}
		}

	}

}
