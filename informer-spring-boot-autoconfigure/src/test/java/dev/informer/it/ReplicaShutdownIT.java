package dev.informer.it;

import java.time.Duration;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import dev.informer.DeliveryRole;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.test.TestResources;
import dev.informer.watch.DeliverySnapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A replica whose API server stopped answering (its connection frozen: nothing flows, no
 * error either) still closes its context in bounded time: giving the Lease up waits at
 * most two seconds, never fabric8's request timeouts and retries (tens of seconds), and
 * no lock is held across a Lease request. A pod's {@code terminationGracePeriodSeconds}
 * (30 s by default) is then enough for the other beans to close too.
 */
class ReplicaShutdownIT {

	/**
	 * The bound: the context closes in less than this with the server silent.
	 */
	private static final Duration BOUND = Duration.ofSeconds(5);

	@ParameterizedTest
	@ValueSource(strings = { "leader", "sharded" })
	void aReplicaCutOffFromASilentServerClosesWithinTheBound(String mode) throws Exception {
		RealApiServer server = RealApiServer.get();
		String namespace = "it-shutdown-" + mode;
		try (KubernetesClient admin = server.adminClient();
				TcpProxy proxy = server.newProxy();
				KubernetesClient client = new KubernetesClientBuilder().withConfig(server.adminConfigThrough(proxy))
					.build()) {
			TestResources.createNamespaces(admin, namespace);
			ConfigurableApplicationContext[] held = new ConfigurableApplicationContext[1];
			long[] closedIn = new long[1];
			replica(client, namespace, mode).run((context) -> {
				assertThat(context).hasNotFailed();
				DeliveryCoordinator coordinator = context.getBean(DeliveryCoordinator.class);
				await().atMost(Duration.ofSeconds(20)).until(() -> holds(coordinator.snapshot(), mode));
				held[0] = context.getSourceApplicationContext();
				proxy.freeze();
				long started = System.nanoTime();
				held[0].close();
				closedIn[0] = System.nanoTime() - started;
			});
			proxy.thaw();
			Duration took = Duration.ofNanos(closedIn[0]);
			System.out.println("ReplicaShutdownIT: " + mode + " replica closed in " + took.toMillis()
					+ " ms with its API server silent");
			assertThat(held[0].isActive()).isFalse();
			assertThat(took).isLessThan(BOUND);
		}
	}

	private static boolean holds(DeliverySnapshot snapshot, String mode) {
		return mode.equals("leader") ? snapshot.leadership().role() == DeliveryRole.LEADER
				: snapshot.sharding().role() == DeliveryRole.MEMBER;
	}

	private static ApplicationContextRunner replica(KubernetesClient client, String namespace, String mode) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> client, (definition) -> definition.setDestroyMethodName(""))
			.withPropertyValues("informer.replicas.mode=" + mode, "informer.replicas.group=orders",
					"informer.replicas.identity=replica-1", "informer.replicas.lease-namespace=" + namespace,
					"informer.replicas.lease-duration=15s", "informer.replicas.renew-deadline=10s",
					"informer.replicas.retry-period=2s", "informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + namespace);
	}

}
