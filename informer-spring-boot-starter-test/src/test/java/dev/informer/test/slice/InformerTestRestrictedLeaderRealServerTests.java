package dev.informer.test.slice;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import dev.informer.DeliveryRole;
import dev.informer.test.AdminClient;
import dev.informer.test.InformerEvents;
import dev.informer.test.InformerTest;
import dev.informer.test.InformerTest.Server;
import dev.informer.test.RequiresRealServer;
import dev.informer.watch.DeliveryStatusSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In {@code leader} delivery mode the restricted user also gets the Lease rules
 * {@link dev.informer.RbacRules} computes, so the informers run, and the replica leads,
 * with no more access than production grants.
 */
@RequiresRealServer
@InformerTest(server = Server.REAL, restricted = true,
		properties = { "informer.replicas.mode=leader", "informer.replicas.group=restricted-leader" })
class InformerTestRestrictedLeaderRealServerTests {

	@Autowired
	KubernetesClient client;

	@Autowired
	@AdminClient
	KubernetesClient admin;

	@Autowired
	InformerEvents events;

	@Autowired
	DeliveryStatusSource delivery;

	@Test
	void theRestrictedUserHoldsTheLeaseAndPublishes() {
		assertThat(this.delivery.snapshot().leadership().role()).isEqualTo(DeliveryRole.LEADER);
		this.admin.configMaps()
			.resource(new ConfigMapBuilder().withNewMetadata().withName("led").endMetadata().build())
			.create();
		assertThat(this.events).receivedAdded("configmaps", this.client.getNamespace(), "led");
	}

}
