package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

import dev.informer.DeliveryRole;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.DeliveryLapseTests.LapsingClock;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.test.InformerContexts;
import dev.informer.test.LeaseDelay;
import dev.informer.test.MockApiServer;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A namespace leaves the {@code namespace-selector} while the leader's Lease has lapsed
 * (made deterministic as in {@link DeliveryLapseTests}): the deletes flagged as having
 * left the selection are held back by the gate. Once the replica may publish again, a
 * listener that applies what it receives, as the contract asks, must end equal to the
 * server: no object of a namespace outside the selection. The CRUD mock tells the watch
 * on Namespaces of a namespace deleted (not of one unlabelled), which ends its match as
 * unlabelling does.
 */
class LeftSelectionLapseTests {

	private static final String GROUP = "tenants";

	private MockApiServer server;

	private KubernetesClient client;

	private final LeaseDelay leases = new LeaseDelay();

	private KubernetesClient replicaClient;

	@BeforeEach
	void start() {
		this.server = MockApiServer.crud();
		this.client = this.server.client();
		this.replicaClient = new KubernetesClientBuilder().withConfig(this.client.getConfiguration())
			.withHttpClientBuilderConsumer((builder) -> builder.addOrReplaceInterceptor(LeaseDelay.NAME, this.leases))
			.build();
		this.client.namespaces()
			.resource(new NamespaceBuilder().withNewMetadata()
				.withName("t1")
				.withLabels(Map.of("tenant", "yes"))
				.endMetadata()
				.build())
			.create();
		this.client.configMaps().inNamespace("t1").resource(TestResources.configMap("t1", "cm-1", "v0")).create();
	}

	@AfterEach
	void stop() {
		this.leases.release();
		this.replicaClient.close();
		this.server.close();
	}

	@Test
	void theDeletesOfANamespaceThatLeftDuringALapseAreDeliveredOnceTheReplicaPublishesAgain() {
		LapsingClock clock = new LapsingClock("informer-delivery-" + GROUP);
		runner(clock).run((context) -> {
			assertThat(context).hasNotFailed();
			AppliedMap listener = context.getBean(AppliedMap.class);
			DeliveryCoordinator coordinator = context.getBean(DeliveryCoordinator.class);
			ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> coordinator.snapshot().leadership().role() == DeliveryRole.LEADER
						&& listener.keys().equals(serverKeys()));
			assertThat(listener.keys()).containsOnlyKeys("t1/cm-1");
			this.leases.hold();
			clock.lapse(Duration.ofSeconds(5));
			this.client.namespaces().withName("t1").delete();
			await().atMost(Duration.ofSeconds(10)).until(() -> informer.getWatches().isEmpty());
			clock.heal();
			this.leases.release();
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(listener.keys()).as("the listener's map against the server")
					.isEqualTo(serverKeys()));
		});
	}

	@Test
	void aNamespaceThatLeftAndJoinedAgainDuringALapseEndsWithWhatTheServerHoldsOnceTheReplicaPublishesAgain() {
		this.client.configMaps().inNamespace("t1").resource(TestResources.configMap("t1", "cm-2", "v0")).create();
		LapsingClock clock = new LapsingClock("informer-delivery-" + GROUP);
		runner(clock).run((context) -> {
			assertThat(context).hasNotFailed();
			AppliedMap listener = context.getBean(AppliedMap.class);
			DeliveryCoordinator coordinator = context.getBean(DeliveryCoordinator.class);
			ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> coordinator.snapshot().leadership().role() == DeliveryRole.LEADER
						&& listener.keys().equals(serverKeys()));
			assertThat(listener.keys()).containsOnlyKeys("t1/cm-1", "t1/cm-2");
			this.leases.hold();
			clock.lapse(Duration.ofSeconds(5));
			this.client.namespaces().withName("t1").delete();
			await().atMost(Duration.ofSeconds(10)).until(() -> informer.getWatches().isEmpty());
			// away from the selection: cm-2 is deleted, cm-1 stays, under the same uid
			this.client.configMaps().inNamespace("t1").withName("cm-2").delete();
			this.client.namespaces()
				.resource(new NamespaceBuilder().withNewMetadata()
					.withName("t1")
					.withLabels(Map.of("tenant", "yes"))
					.endMetadata()
					.build())
				.create();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> informer.getWatches().size() == 1 && informer.getWatches().get(0).isSynced());
			clock.heal();
			this.leases.release();
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(listener.keys()).as("the listener's map against the server")
					.isEqualTo(serverKeys())
					.containsOnlyKeys("t1/cm-1"));
		});
	}

	/**
	 * The server's ConfigMaps in the namespaces the selector matches, by key.
	 */
	private Map<String, String> serverKeys() {
		Map<String, String> keys = new TreeMap<>();
		this.client.namespaces()
			.withLabel("tenant", "yes")
			.list()
			.getItems()
			.forEach((namespace) -> this.client.configMaps()
				.inNamespace(namespace.getMetadata().getName())
				.list()
				.getItems()
				.forEach((cm) -> keys.put(Cache.metaNamespaceKeyFunc(cm), cm.getMetadata().getUid())));
		return keys;
	}

	private ApplicationContextRunner runner(Clock clock) {
		return InformerContexts.runner(() -> this.replicaClient)
			.withBean(AppliedMap.class)
			.withBean(InformerAutoConfiguration.CLOCK_BEAN_NAME, Clock.class, () -> clock)
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=" + GROUP,
					"informer.replicas.identity=replica-1", "informer.replicas.lease-namespace=apps",
					"informer.replicas.lease-duration=6s", "informer.replicas.renew-deadline=4s",
					"informer.replicas.retry-period=1s", "informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespace-selector=tenant=yes");
	}

	/**
	 * A listener as the contract describes it: adds (replayed ones too) and updates put,
	 * deletes remove; the map holds each key's uid.
	 */
	static class AppliedMap {

		private final Map<String, String> map = new ConcurrentHashMap<>();

		@EventListener
		void on(ResourceAddedEvent<ConfigMap> event) {
			this.map.put(Cache.metaNamespaceKeyFunc(event.getResource()), event.getResource().getMetadata().getUid());
		}

		@EventListener
		void on(ResourceUpdatedEvent<ConfigMap> event) {
			this.map.put(Cache.metaNamespaceKeyFunc(event.getResource()), event.getResource().getMetadata().getUid());
		}

		@EventListener
		void on(ResourceDeletedEvent<ConfigMap> event) {
			this.map.remove(Cache.metaNamespaceKeyFunc(event.getResource()));
		}

		Map<String, String> keys() {
			return new TreeMap<>(this.map);
		}

	}

}
