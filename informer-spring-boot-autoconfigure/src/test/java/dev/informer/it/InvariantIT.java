package dev.informer.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.InvariantListener;
import dev.informer.test.RandomChanges;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The delivery invariant on the real API server: random changes interleaved with dropped
 * connections (the watch resumes from its resourceVersion) and relists. Override the seed
 * with {@code -Dinformer.invariant.seed=N}; a failure prints it.
 */
class InvariantIT {

	private static final long SEED = Long.getLong("informer.invariant.seed", 20261129L);

	@Test
	void deliveredEventsReplayToTheServersStateDespiteDropsAndRelists() throws Exception {
		RealApiServer server = RealApiServer.get();
		try (KubernetesClient admin = server.adminClient(); TcpProxy proxy = server.newProxy()) {
			TestResources.createNamespaces(admin, "it-invariant");
			try (KubernetesClient informerClient = new KubernetesClientBuilder()
				.withConfig(server.adminConfigThrough(proxy))
				.build()) {
				InformerContexts.runner(() -> informerClient)
					.withBean(InvariantListener.class)
					.withPropertyValues("informer.resources.configmaps.api-version=v1",
							"informer.resources.configmaps.kind=ConfigMap",
							"informer.resources.configmaps.namespaces=it-invariant",
							"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt")
					.run((context) -> {
						InvariantListener listener = context.getBean(InvariantListener.class);
						DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
						RandomChanges changes = new RandomChanges(admin, "it-invariant", SEED, 30);
						changes.run(800, 60, (dice) -> {
							if (dice < 70) {
								drop(proxy);
							}
							else {
								registry.informer("configmaps").relist();
							}
						});
						String seed = "seed " + SEED + " (rerun with -Dinformer.invariant.seed=" + SEED + ")";
						await().atMost(Duration.ofSeconds(90))
							.untilAsserted(
									() -> assertThat(listener.applied()).as(seed).isEqualTo(changes.serverState()));
						assertThat(listener.violations()).as(seed).isEmpty();
						assertThat(proxy.getAccepted()).as("the watch reconnected through the proxy").isGreaterThan(1);
					});
			}
		}
	}

	private static void drop(TcpProxy proxy) {
		try {
			proxy.cut();
			proxy.restore();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
