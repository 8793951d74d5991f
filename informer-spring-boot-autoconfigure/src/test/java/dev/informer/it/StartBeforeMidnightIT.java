package dev.informer.it;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test servers start, and restart, whatever the time of day. kube-api-test 7.6.1
 * measures its start-up timeout with {@code LocalTime}, so in the last two minutes before
 * local midnight its deadline wraps to the small hours and every start fails at the first
 * poll: CI met it at 23:58 UTC ("Kube API Server did not start properly" in every test
 * that started a server of its own then).
 */
class StartBeforeMidnightIT {

	@Test
	void aServerOfItsOwnStartsInTheLastMinutesBeforeMidnight() {
		try (RealApiServer server = BeforeLocalMidnight.call(RealApiServer::startDedicated);
				KubernetesClient client = server.adminClient()) {
			assertThat(client.namespaces().withName("default").get()).isNotNull();
		}
	}

	@Test
	void aKubeApiServerRestartsInTheLastMinutesBeforeMidnight() {
		try (RealApiServer server = RealApiServer.startRestartable(); KubernetesClient client = server.adminClient()) {
			client.configMaps()
				.inNamespace("default")
				.resource(new ConfigMapBuilder().withNewMetadata().withName("kept").endMetadata().build())
				.create();
			BeforeLocalMidnight.run(() -> {
				server.killApiServer();
				server.restartApiServer();
			});
			assertThat(client.configMaps().inNamespace("default").withName("kept").get()).isNotNull();
		}
	}

}
