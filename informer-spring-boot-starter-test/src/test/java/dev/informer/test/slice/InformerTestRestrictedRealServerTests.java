package dev.informer.test.slice;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import dev.informer.test.AdminClient;
import dev.informer.test.InformerEvents;
import dev.informer.test.InformerTest;
import dev.informer.test.InformerTest.Server;
import dev.informer.test.RequiresRealServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The informers run as a user that has only the RBAC rules they need, on the real
 * kube-apiserver; the test arranges objects with the admin client.
 */
@RequiresRealServer
@InformerTest(server = Server.REAL, restricted = true)
class InformerTestRestrictedRealServerTests {

	@Autowired
	KubernetesClient client;

	@Autowired
	@AdminClient
	KubernetesClient admin;

	@Autowired
	InformerEvents events;

	@Test
	void informersSyncAsTheRestrictedUserAndSeeWhatTheAdminCreates() {
		assertThat(this.client.getConfiguration().getImpersonateUsername()).startsWith("informer-test-user:");
		assertThat(this.events.synced()).containsExactly("configmaps");
		this.admin.configMaps()
			.resource(new ConfigMapBuilder().withNewMetadata().withName("restricted").endMetadata().build())
			.create();
		assertThat(this.events).receivedAdded("configmaps", this.client.getNamespace(), "restricted");
	}

	@Test
	void theApplicationsClientMayOnlyListAndWatch() {
		assertThatExceptionOfType(KubernetesClientException.class)
			.isThrownBy(() -> this.client.configMaps()
				.resource(new ConfigMapBuilder().withNewMetadata().withName("denied").endMetadata().build())
				.create())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(403));
		assertThat(this.admin.getConfiguration().getImpersonateUsername()).isNull();
	}

}
