package dev.informer.it;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import dev.informer.DeliveryMode;
import dev.informer.InformerStartupException;
import dev.informer.runtime.TestWatches;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.runtime.replicas.DeliveryOptions;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a real kube-apiserver answers to the Leases that {@code informer.replicas.*} now
 * rejects at startup ({@code LeasePropertiesTests}), and that such an answer fails
 * startup at once with the server's message. The coordinator is built with options that
 * skip the property checks, as a user of the runtime types could: a lease duration under
 * a second, which fabric8 writes as {@code leaseDurationSeconds: 0}, and a group longer
 * than a label value.
 */
class LeaseRefusalIT {

	private static final String NAMESPACE = "it-lease-refusal";

	@Test
	void aSubSecondLeaseDurationIsRefusedWithHttp422AndFailsStartup() {
		InformerStartupException failure = start(DeliveryMode.LEADER, "orders", Duration.ofMillis(500),
				Duration.ofMillis(400), Duration.ofMillis(150));
		assertThat(failure).hasMessageContaining("refuses to create Lease " + NAMESPACE + "/orders (HTTP 422 Invalid)")
			.hasMessageContaining("spec.leaseDurationSeconds")
			.hasMessageContaining("must be greater than 0");
		assertThat(failure.getAction()).contains("informer.replicas.lease-duration");
	}

	@Test
	void aGroupLongerThanALabelValueIsRefusedWithHttp422AndFailsStartup() {
		String group = "orders-" + "a".repeat(57);
		InformerStartupException failure = start(DeliveryMode.SHARDED, group, Duration.ofSeconds(4),
				Duration.ofSeconds(3), Duration.ofMillis(500));
		assertThat(failure).hasMessageContaining("(HTTP 422 Invalid)")
			.hasMessageContaining("metadata.labels")
			.hasMessageContaining("must be no more than 63");
		assertThat(failure.getAction()).contains("informer.replicas.group");
	}

	private static InformerStartupException start(DeliveryMode mode, String group, Duration leaseDuration,
			Duration renewDeadline, Duration retryPeriod) {
		RealApiServer server = RealApiServer.get();
		try (KubernetesClient client = server.adminClient()) {
			TestResources.createNamespaces(client, NAMESPACE);
			DeliveryOptions options = new DeliveryOptions(mode, Map.of(), group, "pod-a", NAMESPACE, leaseDuration,
					renewDeadline, retryPeriod, false);
			DeliveryCoordinator coordinator = new DeliveryCoordinator(
					List.of(TestWatches.configMaps(Clock.systemUTC(), NAMESPACE)), client, new InformerEventPublisher(),
					options, Clock.systemUTC());
			try {
				coordinator.start();
			}
			catch (InformerStartupException ex) {
				return ex;
			}
			finally {
				coordinator.stop();
			}
			throw new AssertionError("The coordinator started although the API server refuses its Lease");
		}
	}

}
