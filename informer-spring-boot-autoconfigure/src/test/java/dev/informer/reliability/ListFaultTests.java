package dev.informer.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;

import dev.informer.InformerState;
import dev.informer.autoconfigure.health.InformerHealthContributorAutoConfiguration;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.health.InformersHealthContributor;
import dev.informer.runtime.InformerLifecycle;
import dev.informer.runtime.ResourceInformer;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.describe;
import static dev.informer.reliability.FaultServer.event;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.status;
import static dev.informer.reliability.FaultServer.watchPath;
import static dev.informer.reliability.FaultServer.withInformer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The initial list (fault matrix rows 1 to 3): delivered in full before the synced event
 * and before health is up; retried with a growing backoff when the server refuses it or
 * fails, without starving other namespaces and without delivering anything twice.
 */
@ExtendWith(OutputCaptureExtension.class)
class ListFaultTests {

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	private ApplicationContextRunner runner(KubernetesClient client, String namespaces) {
		return InformerContexts.configMaps(() -> client, namespaces)
			.withConfiguration(AutoConfigurations.of(InformerHealthContributorAutoConfiguration.class));
	}

	@Test
	void aColdStartDeliversEveryObjectThenTheSyncedEventAndOnlyThenHealthIsUp() {
		try (MockApiServer crud = MockApiServer.crud()) {
			List<String> names = new ArrayList<>();
			for (int i = 0; i < 25; i++) {
				names.add("cm-" + i);
				crud.client().configMaps().resource(TestResources.configMap("cold", "cm-" + i, "v" + i)).create();
			}
			runner(crud.client(), "cold").withBean(HealthWhileSyncing.class).run((context) -> {
				RecordingListener listener = InformerContexts.listener(context);
				// startup waited for the sync
				assertThat(listener.events()).hasSize(26);
				assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
					.containsExactlyInAnyOrderElementsOf(names);
				assertThat(listener.events().get(25)).isInstanceOfSatisfying(InformerSyncedEvent.class,
						(synced) -> assertThat(synced.getCacheSize()).isEqualTo(25));
				// what a probe saw while listeners received
				// the initial list, and at the sync
				List<String> seen = context.getBean(HealthWhileSyncing.class).seen;
				assertThat(seen).hasSize(26);
				assertThat(seen.subList(0, 25)).containsOnly("OUT_OF_SERVICE Syncing");
				assertThat(seen.get(25)).startsWith("UP");
				HealthIndicator health = InformerContexts.health(context);
				await().atMost(Duration.ofSeconds(5))
					.until(() -> health.health().getStatus().equals(Status.UP)
							&& Boolean.TRUE.equals(health.health().getDetails().get("watching")));
			});
		}
	}

	@Test
	void startupWaitsUntilListenersHaveTheSyncedEvent() {
		this.faults.lists(listPath("cold"), list("3", cm("cold", "a", "3")));
		this.faults.watchStaysOpen(watchPath("cold", "3"));
		runner(this.faults.client(), "cold").withBean(SyncedListener.class)
			.withBean(LaterPhase.class)
			.run((context) -> {
				// an application initialising itself on the synced event must be
				// done before the lifecycle phases after the informers' start
				SyncedListener listener = context.getBean(SyncedListener.class);
				assertThat(listener.laterPhaseStartedFirst).isFalse();
				assertThat(InformerContexts.listener(context).events()).hasSize(2);
			});
	}

	@Test
	void aForbiddenNamespaceRetriesWithGrowingBackoffWhileTheOtherDeliversAndThenRecovers(CapturedOutput output) {
		List<Long> deniedLists = new CopyOnWriteArrayList<>();
		String forbidden = "configmaps is forbidden: User \"system:serviceaccount:app:app\" cannot list resource "
				+ "\"configmaps\" in API group \"\" in the namespace \"denied\"";
		this.faults.server().expect().get().withPath(listPath("denied")).andReply(403, (request) -> {
			deniedLists.add(System.nanoTime());
			return status(403, "Forbidden", forbidden);
		}).times(4);
		this.faults.server().expect().get().withPath(listPath("denied")).andReply(200, (request) -> {
			deniedLists.add(System.nanoTime());
			return list("7", cm("denied", "x", "7"));
		}).once();
		this.faults.watchStaysOpen(watchPath("denied", "7"));
		this.faults.lists(listPath("allowed"), list("5", cm("allowed", "y", "5")));
		this.faults.watchStaysOpen(watchPath("allowed", "5"), event("ADDED", cm("allowed", "z", "6")));
		runner(this.faults.client(), "denied,allowed")
			.withPropertyValues("informer.startup.fail-on-forbidden=false", "informer.startup.wait-for-sync=false",
					"informer.startup.timeout=1s")
			.run((context) -> {
				RecordingListener listener = InformerContexts.listener(context);
				ResourceInformer<?> informer = InformerContexts.informer(context);
				Watch denied = informer.getWatches().get(0);
				Watch allowed = informer.getWatches().get(1);
				CompositeHealthContributor health = (CompositeHealthContributor) context
					.getBean(InformersHealthContributor.class)
					.getContributor("configmaps");
				// the allowed namespace syncs and delivers while the other is refused
				await().atMost(Duration.ofSeconds(5))
					.until(() -> describe(listener.resourceEvents()).equals(List.of("added y 5", "added z 6")));
				assertThat(allowed.isSynced()).isTrue();
				assertThat(denied.isSynced()).isFalse();
				assertThat(denied.getLastError().httpCode()).isEqualTo(403);
				assertThat(denied.getLastError().reason()).isEqualTo("Forbidden");
				// past the startup timeout the refused namespace is down, and says why
				await().atMost(Duration.ofSeconds(5)).until(() -> health(health, "denied").getStatus() == Status.DOWN);
				assertThat(health(health, "denied").getDetails()).containsEntry("reason", "Forbidden");
				assertThat(health(health, "allowed").getStatus()).isEqualTo(Status.UP);
				assertThat(listener.events(InformerSyncedEvent.class)).isEmpty();
				// then the RoleBinding arrives
				await().atMost(Duration.ofSeconds(10)).until(denied::isSynced);
				await().atMost(Duration.ofSeconds(5))
					.until(() -> listener.resourceEvents().size() == 3
							&& health(health, "denied").getStatus() == Status.UP);
				assertThat(describe(listener.resourceEvents())).containsExactly("added y 5", "added z 6", "added x 7");
				assertThat(listener.events(InformerSyncedEvent.class)).singleElement()
					.satisfies((synced) -> assertThat(synced.getCacheSize()).isEqualTo(3));
				assertThat(denied.snapshot().errors().consecutive()).isZero();
				assertThat(denied.getState()).isEqualTo(InformerState.WATCHING);
				// 4 refusals then success, timed on the server: waits of at least
				// 200, 400, 800 and 1600 ms (the backoff doubles), not a hot loop
				assertThat(deniedLists).hasSize(5);
				for (int i = 1; i < deniedLists.size(); i++) {
					long expected = FaultServer.BACKOFF_MILLIS << (i - 1);
					assertThat(Duration.ofNanos(deniedLists.get(i) - deniedLists.get(i - 1)).toMillis())
						.as("wait before list attempt %d", i + 1)
						.isGreaterThanOrEqualTo(expected - 50);
				}
			});
		// one line per refusal, naming the informer,
		// the namespace, the verb and the resource
		List<String> refusals = output.getOut()
			.lines()
			.filter((line) -> line.contains("Informer 'configmaps' in namespace denied: HTTP 403 Forbidden"))
			.toList();
		assertThat(refusals).hasSize(4)
			.allSatisfy((line) -> assertThat(line).contains("cannot list resource \"configmaps\"")
				.contains("retrying with backoff"));
		assertThat(output.getOut()).doesNotContain("Informer 'configmaps' in namespace allowed:");
	}

	@Test
	void serverErrorsOnTheInitialListAreRetriedUntilItSucceedsAndNothingIsDeliveredTwice() {
		this.faults.fails(listPath("flaky"), status(500, "InternalError", "etcdserver: request timed out"), 1);
		this.faults.fails(listPath("flaky"),
				status(503, "ServiceUnavailable", "the server is currently unable to handle the request"), 1);
		this.faults.fails(listPath("flaky"),
				status(429, "TooManyRequests", "too many requests, please try again later"), 1);
		this.faults.lists(listPath("flaky"),
				list("9", cm("flaky", "a", "1"), cm("flaky", "b", "2"), cm("flaky", "c", "3")));
		this.faults.watchStaysOpen(watchPath("flaky", "9"));
		runner(this.faults.client(), "flaky").run(withInformer((context, listener, informer, status) -> {
			// startup waited through the errors
			assertThat(status.isSynced()).isTrue();
			await().during(Duration.ofMillis(500)).until(() -> listener.events().size() == 4);
			assertThat(describe(listener.resourceEvents())).containsExactlyInAnyOrder("added a 1", "added b 2",
					"added c 3");
			assertThat(listener.events().get(3)).isInstanceOf(InformerSyncedEvent.class);
			assertThat(this.faults.paths()).containsExactly(listPath("flaky"), listPath("flaky"), listPath("flaky"),
					listPath("flaky"), watchPath("flaky", "9"));
			assertThat(status.getLastError().httpCode()).isEqualTo(429);
			assertThat(status.snapshot().errors().consecutive()).isZero();
			assertThat(status.snapshot().lists().relistCount()).isZero();
			assertThat(status.snapshot().lists().last().trigger()).isEqualTo(RelistReason.INITIAL);
		}));
	}

	private static Health health(CompositeHealthContributor informer, String namespace) {
		return ((HealthIndicator) informer.getContributor(namespace)).health();
	}

	/**
	 * Gives a lifecycle phase after the informers' every chance to start while it handles
	 * the synced event: none should.
	 */
	static class SyncedListener {

		final CountDownLatch laterPhaseStarted = new CountDownLatch(1);

		volatile @Nullable Boolean laterPhaseStartedFirst;

		@EventListener
		void on(InformerSyncedEvent event) throws InterruptedException {
			this.laterPhaseStartedFirst = this.laterPhaseStarted.await(1, TimeUnit.SECONDS);
		}

	}

	static class LaterPhase implements SmartLifecycle {

		private final SyncedListener listener;

		private volatile boolean running;

		LaterPhase(SyncedListener listener) {
			this.listener = listener;
		}

		@Override
		public void start() {
			this.running = true;
			this.listener.laterPhaseStarted.countDown();
		}

		@Override
		public void stop() {
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			return InformerLifecycle.PHASE + 1;
		}

	}

	/**
	 * Asks for health on every event of the initial list, as a readiness probe could at
	 * any moment.
	 */
	static class HealthWhileSyncing {

		final List<String> seen = new CopyOnWriteArrayList<>();

		private final ObjectProvider<InformersHealthContributor> health;

		HealthWhileSyncing(ObjectProvider<InformersHealthContributor> health) {
			this.health = health;
		}

		@EventListener
		void on(ResourceAddedEvent<?> event) {
			record();
		}

		@EventListener
		void on(InformerSyncedEvent event) {
			record();
		}

		private void record() {
			Health health = ((HealthIndicator) this.health.getObject().getContributor("configmaps")).health();
			this.seen.add(health.getStatus() + " " + health.getDetails().get("reason"));
		}

	}

}
