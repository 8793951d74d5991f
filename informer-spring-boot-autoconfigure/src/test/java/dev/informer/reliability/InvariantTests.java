package dev.informer.reliability;

import java.time.Duration;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InvariantListener;
import dev.informer.test.MockApiServer;
import dev.informer.test.RandomChanges;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The invariant behind the fault matrix, on the mock server: a seeded random stream of
 * creates, updates and deletes, interleaved with relists, applied by a listener to an
 * empty map, ends equal to the server's state, each object's events in resourceVersion
 * order, each update's old state the one the listener last saw, and no event for an
 * object that did not change. The listener is slow and variable (up to
 * {@link #LISTENER_WORK} per event), so changes, deletes among them, are queued behind it
 * when a relist happens. Override the seed with {@code -Dinformer.invariant.seed=N}; a
 * failure prints it.
 */
class InvariantTests {

	private static final long SEED = Long.getLong("informer.invariant.seed", 20261129L);

	private static final Duration LISTENER_WORK = Duration.ofMillis(20);

	private static final String RERUN = "seed " + SEED + " (rerun with -Dinformer.invariant.seed=" + SEED + ")";

	private static MockApiServer mock;

	@BeforeAll
	static void startServer() {
		mock = MockApiServer.crud();
	}

	@AfterAll
	static void stopServer() {
		mock.close();
	}

	@Test
	void deliveredEventsReplayToTheServersStateDespiteRelists() {
		runner("invariant").run((context) -> {
			InvariantListener listener = context.getBean(InvariantListener.class);
			DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
			RandomChanges changes = new RandomChanges(mock.client(), "invariant", SEED, 40);
			// the mock cannot drop or expire a watch; a relist is its disruption
			changes.run(1500, 100, (dice) -> registry.informer("configmaps").relist());
			listener.awaitReplayOf(changes::serverState, RERUN, Duration.ofSeconds(90));
			assertThat(registry.informer("configmaps").getWatches().get(0).snapshot().lists().relists().get("manual"))
				.as(RERUN)
				.isPositive();
		});
	}

	@Test
	void burstsEndingInDeletesThenARelistReachASlowListenerIntact() {
		runner("invariant-bursts").run((context) -> {
			InvariantListener listener = context.getBean(InvariantListener.class);
			DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
			RandomChanges changes = new RandomChanges(mock.client(), "invariant-bursts", SEED, 50);
			changes.createAll();
			for (int burst = 0; burst < 10; burst++) {
				// the listener is still working through the burst when the relist reads
				// what it saw
				changes.burst(30);
				registry.informer("configmaps").relist();
			}
			listener.awaitReplayOf(changes::serverState, RERUN, Duration.ofSeconds(90));
		});
	}

	private ApplicationContextRunner runner(String namespace) {
		System.out.println("InvariantTests: " + RERUN);
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesClient.class, mock::client, (definition) -> definition.setDestroyMethodName(""))
			.withBean(InvariantListener.class, () -> new InvariantListener(SEED, LISTENER_WORK))
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + namespace);
	}

}
