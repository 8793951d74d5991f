package dev.informer.reliability;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.InvariantListener;
import dev.informer.test.MockApiServer;
import dev.informer.test.RandomChanges;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The invariant behind the fault matrix, on the mock server: a seeded random stream of
 * creates, updates and deletes, interleaved with relists, applied by a listener to an empty
 * map, ends equal to the server's state, each object's events in resourceVersion order, and
 * no event for an object that did not change. Override the seed with
 * {@code -Dinformer.invariant.seed=N}; a failure prints it.
 */
class InvariantTests {

	private static final long SEED = Long.getLong("informer.invariant.seed", 20261129L);

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
		InformerContexts.runner(mock::client)
			.withBean(InvariantListener.class)
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=invariant")
			.run((context) -> {
				InvariantListener listener = context.getBean(InvariantListener.class);
				DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
				RandomChanges changes = new RandomChanges(mock.client(), "invariant", SEED, 40);
				// the mock cannot drop or expire a watch; a relist is its disruption
				changes.run(1500, 100, (dice) -> registry.informer("configmaps").relist());
				String seed = "seed " + SEED + " (rerun with -Dinformer.invariant.seed=" + SEED + ")";
				await().atMost(Duration.ofSeconds(60))
					.untilAsserted(() -> assertThat(listener.applied()).as(seed).isEqualTo(changes.serverState()));
				assertThat(listener.violations()).as(seed).isEmpty();
				assertThat(registry.informer("configmaps").getWatches().get(0).getRelists().get("manual"))
					.as(seed)
					.isPositive();
			});
	}

}
