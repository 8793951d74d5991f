package dev.informer.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InvariantListener;
import dev.informer.test.RandomChanges;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The delivery invariant on the real API server: random changes interleaved with dropped
 * connections (the watch resumes from its resourceVersion), relists, and bursts of
 * changes ending in deletes followed by a relist, delivered to a slow and variable
 * listener so that the drops and relists happen while changes are queued behind it.
 * Override the seed with {@code -Dinformer.invariant.seed=N}; a failure prints it.
 */
class InvariantIT {

	private static final long SEED = Long.getLong("informer.invariant.seed", 20261129L);

	private static final String RERUN = "seed " + SEED + " (rerun with -Dinformer.invariant.seed=" + SEED + ")";

	@Test
	void deliveredEventsReplayToTheServersStateDespiteDropsAndRelists() throws Exception {
		RealApiServer server = RealApiServer.get();
		try (KubernetesClient admin = server.adminClient(); TcpProxy proxy = server.newProxy()) {
			TestResources.createNamespaces(admin, "it-invariant");
			try (KubernetesClient informerClient = new KubernetesClientBuilder()
				.withConfig(server.adminConfigThrough(proxy))
				.build()) {
				new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
					.withBean(KubernetesClient.class, () -> informerClient,
							(definition) -> definition.setDestroyMethodName(""))
					.withBean(InvariantListener.class, () -> new InvariantListener(SEED, Duration.ofMillis(20)))
					.withPropertyValues("informer.resources.configmaps.api-version=v1",
							"informer.resources.configmaps.kind=ConfigMap",
							"informer.resources.configmaps.namespaces=it-invariant",
							"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt")
					.run((context) -> {
						System.out.println("InvariantIT: " + RERUN);
						InvariantListener listener = context.getBean(InvariantListener.class);
						DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
						RandomChanges changes = new RandomChanges(admin, "it-invariant", SEED, 30);
						changes.run(800, 60, (dice) -> {
							if (dice < 50) {
								drop(proxy);
							}
							else if (dice < 75) {
								registry.informer("configmaps").relist();
							}
							else {
								// deletes queued behind the listener when the relist
								// reads what it saw
								changes.burst(20);
								registry.informer("configmaps").relist();
							}
						});
						listener.awaitReplayOf(changes::serverState, RERUN, Duration.ofSeconds(90));
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
