package dev.informer.test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real API server and the control plane start whatever the time of day. kube-api-test
 * 7.6.1 measures its start-up timeout with {@code LocalTime}, so in the last two minutes
 * before local midnight its deadline wraps to the small hours and every start fails at
 * the first poll ("etcd did not start properly"); CI met it at 23:58 UTC.
 */
@RequiresRealServer
class StartBeforeMidnightIT {

	@Test
	void aRealApiServerStartsInTheLastMinutesBeforeMidnight() {
		try (RealApiServer server = BeforeLocalMidnight.call(() -> RealApiServer.start(RealApiServer.binaryRoot()));
				KubernetesClient client = new KubernetesClientBuilder().withConfig(server.getConfig()).build()) {
			assertThat(client.namespaces().withName("default").get()).isNotNull();
		}
	}

	@Test
	void aControlPlaneStartsInTheLastMinutesBeforeMidnight() {
		try (ControlPlane controlPlane = BeforeLocalMidnight.call(() -> ControlPlane.start(1));
				KubernetesClient client = controlPlane.adminClient()) {
			assertThat(client.nodes().list().getItems()).hasSize(1);
		}
	}

}
