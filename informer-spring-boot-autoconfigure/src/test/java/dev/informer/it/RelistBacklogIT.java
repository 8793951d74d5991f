package dev.informer.it;

import java.time.Duration;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InvariantListener;
import dev.informer.test.RandomChanges;
import dev.informer.test.TestResources;

/**
 * Relists while a slow listener is behind (issue 10, point 2): 50 ConfigMaps, a listener
 * that takes 20 ms per event, and bursts that change 30 of them and delete every second
 * one of those, each followed by a relist. Several changes of one object, the last a
 * delete, are then queued behind the listener when the relist reads what listeners have
 * seen: it must read the state the listener last saw, not the state before the first
 * queued change, or deletes are lost, adds repeated and updates given an old state the
 * listener never saw. Override the seed with {@code -Dinformer.invariant.seed=N}; a
 * failure prints it.
 */
class RelistBacklogIT {

	private static final String NAMESPACE = "it-relist-backlog";

	private static final long SEED = Long.getLong("informer.invariant.seed", 20261201L);

	private static final String RERUN = "seed " + SEED + " (rerun with -Dinformer.invariant.seed=" + SEED + ")";

	@Test
	void relistsDuringABacklogDeliverEveryDeleteOnceAndNoAddTwice() throws Exception {
		RealApiServer server = RealApiServer.get();
		try (KubernetesClient admin = server.adminClient(); KubernetesClient informerClient = server.adminClient()) {
			TestResources.createNamespaces(admin, NAMESPACE);
			RandomChanges changes = new RandomChanges(admin, NAMESPACE, SEED, 50);
			changes.createAll();
			new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
				.withBean(KubernetesClient.class, () -> informerClient,
						(definition) -> definition.setDestroyMethodName(""))
				.withBean(InvariantListener.class,
						() -> new InvariantListener(SEED, Duration.ofMillis(20), Duration.ofMillis(20)))
				.withPropertyValues("informer.resources.configmaps.api-version=v1",
						"informer.resources.configmaps.kind=ConfigMap",
						"informer.resources.configmaps.namespaces=" + NAMESPACE,
						"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt")
				.run((context) -> {
					System.out.println("RelistBacklogIT: " + RERUN);
					InvariantListener listener = context.getBean(InvariantListener.class);
					DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
					for (int burst = 0; burst < 5; burst++) {
						changes.burst(30);
						registry.informer("configmaps").relist();
					}
					listener.awaitReplayOf(changes::serverState, RERUN, Duration.ofSeconds(90));
				});
		}
	}

}
