package dev.informer.it;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchHealth;
import dev.informer.watch.WatchHealthPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code informer.listeners.max-backlog=20} with {@code overflow=coalesce} on a real API
 * server: a listener held while 100 ConfigMaps are created and each updated three times,
 * then deleted every fifth. While held the backlog stays at the bound plus one change per
 * object and health is {@code OUT_OF_SERVICE} ({@code Backlogged}); released, the
 * listener ends with the server's state, every update's old state the one it saw.
 */
class BoundedBacklogIT {

	private static final String NAMESPACE = "it-bounded-backlog";

	private static final int OBJECTS = 100;

	@Test
	void aHeldListenerGetsEveryFinalStateFromABoundedBacklog() throws Exception {
		RealApiServer server = RealApiServer.get();
		try (KubernetesClient admin = server.adminClient(); KubernetesClient informerClient = server.adminClient()) {
			TestResources.createNamespaces(admin, NAMESPACE);
			HeldListener listener = new HeldListener();
			new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
				.withBean(KubernetesClient.class, () -> informerClient,
						(definition) -> definition.setDestroyMethodName(""))
				.withBean("held", ApplicationListener.class, () -> listener)
				.withPropertyValues("informer.resources.configmaps.api-version=v1",
						"informer.resources.configmaps.kind=ConfigMap",
						"informer.resources.configmaps.namespaces=" + NAMESPACE,
						"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt",
						"informer.listeners.max-backlog=20", "informer.listeners.overflow=coalesce")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class)
						.informer("configmaps");
					Watch watch = informer.getWatches().get(0);
					for (int i = 0; i < OBJECTS; i++) {
						admin.configMaps().resource(TestResources.configMap(NAMESPACE, "cm-" + i, "0")).create();
					}
					for (int round = 1; round <= 3; round++) {
						for (int i = 0; i < OBJECTS; i++) {
							ConfigMap current = admin.configMaps().inNamespace(NAMESPACE).withName("cm-" + i).get();
							admin.configMaps()
								.resource(new ConfigMapBuilder(current).withData(Map.of("value", "" + round)).build())
								.update();
						}
					}
					for (int i = 0; i < OBJECTS; i += 5) {
						admin.configMaps().inNamespace(NAMESPACE).withName("cm-" + i).delete();
					}
					await().atMost(Duration.ofSeconds(60)).until(() -> informer.getCache().size() == OBJECTS * 4 / 5);
					assertThat(watch.snapshot().cache().backlog()).isLessThanOrEqualTo(20 + OBJECTS);
					assertThat(watch.snapshot().cache().coalesced()).isPositive();
					WatchHealthPolicy health = new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60));
					assertThat(health.evaluate(informer, watch.snapshot(), Instant.now()))
						.isEqualTo(new WatchHealth(WatchHealth.Level.OUT_OF_SERVICE, WatchHealthPolicy.BACKLOGGED));
					listener.release();
					await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
						assertThat(listener.view).isEqualTo(serverState(admin));
						assertThat(watch.snapshot().cache().backlog()).isZero();
					});
					assertThat(listener.violations).isEmpty();
					System.out.printf("BoundedBacklogIT: %d changes folded, %d deliveries%n",
							watch.snapshot().cache().coalesced(), listener.deliveries.size());
				});
		}
	}

	private static Map<String, String> serverState(KubernetesClient admin) {
		return admin.configMaps()
			.inNamespace(NAMESPACE)
			.withField("metadata.name!=kube-root-ca.crt", null)
			.list()
			.getItems()
			.stream()
			.collect(Collectors.toMap((cm) -> cm.getMetadata().getName(),
					(cm) -> cm.getMetadata().getResourceVersion()));
	}

	/**
	 * Holds the first event until released, then checks each event against what it saw.
	 */
	private static final class HeldListener implements ApplicationListener<ApplicationEvent> {

		private final CountDownLatch released = new CountDownLatch(1);

		private final Map<String, String> view = new ConcurrentHashMap<>();

		private final List<String> violations = new CopyOnWriteArrayList<>();

		private final List<String> deliveries = new CopyOnWriteArrayList<>();

		void release() {
			this.released.countDown();
		}

		@Override
		public void onApplicationEvent(ApplicationEvent event) {
			if (!(event instanceof ResourceEvent<?> resourceEvent)) {
				return;
			}
			try {
				this.released.await(90, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			String key = resourceEvent.getName();
			String seen = this.view.get(key);
			this.deliveries.add(key);
			if (event instanceof ResourceAddedEvent<?> && seen != null) {
				this.violations.add("added while present: " + event);
			}
			if (event instanceof ResourceUpdatedEvent<?> update
					&& !update.getOldResource().getMetadata().getResourceVersion().equals(seen)) {
				this.violations.add("old state is not the last seen " + seen + ": " + event);
			}
			if (event instanceof ResourceDeletedEvent<?>) {
				if (seen == null) {
					this.violations.add("deleted while absent: " + event);
				}
				this.view.remove(key);
			}
			else {
				this.view.put(key, resourceEvent.getResourceVersion());
			}
		}

	}

}
