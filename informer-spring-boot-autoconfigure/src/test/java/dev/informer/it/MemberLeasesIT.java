package dev.informer.it;

import java.time.Duration;
import java.util.List;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.DeliveryRole;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code sharded} members on a real kube-apiserver do not leave a Lease behind: five
 * replicas, one identity each (as pods of a Deployment rolled five times), each deletes
 * its member Lease when it stops, so the members' list stays as long as the group.
 */
class MemberLeasesIT {

	private static final String NAMESPACE = "it-member-leases";

	@Test
	void fiveIdentitiesThatStartAndStopLeaveNoLease() {
		RealApiServer server = RealApiServer.get();
		try (KubernetesClient admin = server.adminClient(); KubernetesClient client = server.adminClient()) {
			TestResources.createNamespaces(admin, NAMESPACE);
			for (int i = 1; i <= 5; i++) {
				String identity = "pod-" + i;
				replica(client, identity).run((context) -> {
					assertThat(context).hasNotFailed();
					await().atMost(Duration.ofSeconds(20))
						.until(() -> context.getBean(DeliveryCoordinator.class)
							.snapshot()
							.sharding()
							.role() == DeliveryRole.MEMBER);
					assertThat(leases(admin)).containsExactly("orders-" + identity);
				});
				// deleted within the bounded stop: the server answers at once
				assertThat(leases(admin)).as("Leases after %s stopped", identity).isEmpty();
			}
		}
	}

	private static List<String> leases(KubernetesClient admin) {
		return admin.leases()
			.inNamespace(NAMESPACE)
			.list()
			.getItems()
			.stream()
			.map((Lease lease) -> lease.getMetadata().getName())
			.sorted()
			.toList();
	}

	private static ApplicationContextRunner replica(KubernetesClient client, String identity) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> client, (definition) -> definition.setDestroyMethodName(""))
			.withPropertyValues("informer.replicas.mode=sharded", "informer.replicas.group=orders",
					"informer.replicas.identity=" + identity, "informer.replicas.lease-namespace=" + NAMESPACE,
					"informer.replicas.lease-duration=4s", "informer.replicas.renew-deadline=3s",
					"informer.replicas.retry-period=500ms", "informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + NAMESPACE);
	}

}
