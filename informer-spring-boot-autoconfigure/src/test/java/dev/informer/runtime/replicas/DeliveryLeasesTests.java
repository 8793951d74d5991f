package dev.informer.runtime.replicas;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

import dev.informer.DeliveryRole;
import dev.informer.event.DeliveryRoleChangedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Leases of {@code leader} and {@code sharded} delivery on fabric8's CRUD mock, where
 * the test plays other replicas by writing Leases itself: a replica whose clock is behind
 * (its renew times lie in the past) is live while it renews; member Leases do not pile
 * up; role changes stop with the context.
 */
class DeliveryLeasesTests {

	private static final String NAMESPACE = "apps";

	private MockApiServer server;

	private KubernetesClient client;

	@BeforeEach
	void start() {
		this.server = MockApiServer.crud();
		this.client = this.server.client();
		this.client.configMaps().resource(TestResources.configMap(NAMESPACE, "cm-0", "v0")).create();
	}

	@AfterEach
	void stop() {
		this.server.close();
	}

	@Test
	void aMemberWhoseClockIsBehindIsLiveWhileItRenews() {
		Ghost ghost = new Ghost(memberLease("orders-ghost", "ghost", true));
		ghost.start();
		try {
			runner("sharded").run((context) -> {
				assertThat(context).hasNotFailed();
				DeliveryCoordinator coordinator = context.getBean(DeliveryCoordinator.class);
				await().atMost(Duration.ofSeconds(20))
					.until(() -> coordinator.snapshot().sharding().members().equals(List.of("ghost", "replica-1")));
			});
		}
		finally {
			ghost.stop();
		}
	}

	@Test
	void aLeaderWhoseClockIsBehindKeepsTheLeaseWhileItRenewsAndLosesItOnceItStops() {
		Ghost ghost = new Ghost(memberLease("orders", "ghost", false));
		ghost.start();
		try {
			runner("leader").run((context) -> {
				assertThat(context).hasNotFailed();
				DeliveryCoordinator coordinator = context.getBean(DeliveryCoordinator.class);
				// the ghost renews for three lease durations; its renew times alone say
				// its Lease expired long ago
				ghost.awaitRenewals(3 * 4 * 1000 / Ghost.PERIOD_MS);
				assertThat(coordinator.snapshot().leadership().role()).isEqualTo(DeliveryRole.STANDBY);
				assertThat(holder("orders")).isEqualTo("ghost");
				ghost.stop();
				await().atMost(Duration.ofSeconds(20))
					.until(() -> coordinator.snapshot().leadership().role() == DeliveryRole.LEADER);
				assertThat(holder("orders")).isEqualTo("replica-1");
			});
		}
		finally {
			ghost.stop();
		}
	}

	/**
	 * A leader that another replica replaces may be the only one that ever saw an object:
	 * the new leader's watch may have listed again across the object's whole life, and
	 * its catch-up on deletes cannot reach back past a kube-apiserver restart. So the
	 * former leader delivers the deletes of what its listeners hold, as replays; the
	 * changes it does not own it leaves to the new leader. Found by
	 * {@code FaultScheduleIT} seed 641363971144115683 (leader, {@code on-change}).
	 */
	@Test
	void aLeaderThatAnotherReplicaReplacesDeliversTheDeletesOfWhatItPublished() {
		List<String> received = new CopyOnWriteArrayList<>();
		ApplicationListener<ResourceEvent<?>> listener = (event) -> received
			.add(event.getClass().getSimpleName() + " " + event.getResource().getMetadata().getName()
					+ ((event instanceof ResourceDeletedEvent<?> deleted && deleted.isReplay()) ? " (replay)" : ""));
		ScheduledExecutorService usurper = Executors.newSingleThreadScheduledExecutor();
		try {
			runner("leader").withBean("changes", ApplicationListener.class, () -> listener).run((context) -> {
				assertThat(context).hasNotFailed();
				DeliveryCoordinator coordinator = context.getBean(DeliveryCoordinator.class);
				await().atMost(Duration.ofSeconds(20))
					.until(() -> coordinator.snapshot().leadership().role() == DeliveryRole.LEADER);
				ConfigMap published = this.client.configMaps()
					.resource(TestResources.configMap(NAMESPACE, "published", "v0"))
					.create();
				await().atMost(Duration.ofSeconds(10)).until(() -> received.contains("ResourceAddedEvent published"));
				// another replica takes the Lease and renews it as often as the ghost
				// does
				usurper.scheduleAtFixedRate(this::usurp, 0, Ghost.PERIOD_MS, TimeUnit.MILLISECONDS);
				await().atMost(Duration.ofSeconds(20))
					.until(() -> coordinator.snapshot().leadership().role() == DeliveryRole.STANDBY);
				this.client.resource(published).delete();
				this.client.configMaps().resource(TestResources.configMap(NAMESPACE, "unseen", "v0")).create();
				await().atMost(Duration.ofSeconds(20))
					.until(() -> received.contains("ResourceDeletedEvent published (replay)"));
				// once the informer has handed "unseen" on, nothing of it came
				Watch watch = context.getBean(DefaultInformerRegistry.class).informer("configmaps").getWatches().get(0);
				await().atMost(Duration.ofSeconds(20))
					.until(() -> context.getBean(DefaultInformerRegistry.class)
						.informer("configmaps")
						.getCache()
						.get(NAMESPACE, "unseen")
						.isPresent() && watch.snapshot().cache().backlog() == 0);
				assertThat(received).as("nothing of what the new leader publishes")
					.doesNotContain("ResourceAddedEvent unseen");
			});
		}
		finally {
			usurper.shutdownNow();
		}
	}

	/**
	 * Another replica, played by the test: takes the leader's Lease, or renews it.
	 */
	private void usurp() {
		try {
			this.client.leases().inNamespace(NAMESPACE).withName("orders").edit((current) -> {
				current.getSpec().setHolderIdentity("usurper");
				current.getSpec().setRenewTime(ZonedDateTime.now(ZoneOffset.UTC));
				return current;
			});
		}
		catch (RuntimeException ex) {
			// the mock server closed at the end of the test
		}
	}

	@Test
	void membersThatStopDeleteTheirLeaseAndLeasesOfMembersGoneForGoodAreDeleted() {
		// five identities on a real API server: MemberLeasesIT
		for (int i = 1; i <= 2; i++) {
			runner("sharded").withPropertyValues("informer.replicas.identity=pod-" + i).run((context) -> {
				assertThat(context).hasNotFailed();
				await().atMost(Duration.ofSeconds(20))
					.until(() -> context.getBean(DeliveryCoordinator.class)
						.snapshot()
						.sharding()
						.role() == DeliveryRole.MEMBER);
			});
			// the CRUD mock stalls for 10 s each time a watch closes: the delete may come
			// after the bounded stop
			await().atMost(Duration.ofSeconds(30)).until(() -> leaseNames().isEmpty());
		}
		// a member killed without stopping: its Lease stays, never renewed
		this.client.leases().resource(memberLease("orders-killed", "killed", true)).create();
		runner("sharded").run((context) -> {
			assertThat(context).hasNotFailed();
			await().atMost(Duration.ofSeconds(30)).until(() -> leaseNames().equals(List.of("orders-replica-1")));
		});
	}

	@Test
	void theFirstRoleChangeReachesTheListeners() {
		List<DeliveryRoleChangedEvent> changes = new CopyOnWriteArrayList<>();
		ApplicationListener<DeliveryRoleChangedEvent> listener = changes::add;
		runner("leader").withBean("roles", ApplicationListener.class, () -> listener).run((context) -> {
			assertThat(context).hasNotFailed();
			// published while the coordinator starts, before the informers' lifecycle
			await().atMost(Duration.ofSeconds(10)).until(() -> !changes.isEmpty());
			assertThat(changes.get(0).getRole()).isEqualTo(DeliveryRole.LEADER);
		});
	}

	@Test
	void aRoleChangeBeingPublishedWhenTheContextClosesReachesNoFurtherListener() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<DeliveryRoleChangedEvent> afterClose = new CopyOnWriteArrayList<>();
		AtomicReference<Boolean> closed = new AtomicReference<>(false);
		ApplicationListener<DeliveryRoleChangedEvent> slow = (event) -> {
			entered.countDown();
			try {
				release.await(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		};
		ApplicationListener<DeliveryRoleChangedEvent> next = (event) -> {
			if (closed.get()) {
				afterClose.add(event);
			}
		};
		ConfigurableApplicationContext[] held = new ConfigurableApplicationContext[1];
		runner("leader").withBean("aSlow", ApplicationListener.class, () -> slow)
			.withBean("bNext", ApplicationListener.class, () -> next)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				held[0] = context.getSourceApplicationContext();
				assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
			});
		closed.set(true);
		release.countDown();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> Thread.getAllStackTraces()
				.keySet()
				.stream()
				.noneMatch((thread) -> thread.isAlive() && thread.getName().equals("informer-delivery-events")));
		assertThat(held[0].isActive()).isFalse();
		assertThat(afterClose).isEmpty();
	}

	private List<String> leaseNames() {
		List<String> names = new ArrayList<>();
		for (Lease lease : this.client.leases().inNamespace(NAMESPACE).list().getItems()) {
			names.add(lease.getMetadata().getName());
		}
		names.sort(null);
		return names;
	}

	private String holder(String lease) {
		return this.client.leases().inNamespace(NAMESPACE).withName(lease).get().getSpec().getHolderIdentity();
	}

	private ApplicationContextRunner runner(String mode) {
		return InformerContexts.runner(() -> this.client)
			.withPropertyValues("informer.replicas.mode=" + mode, "informer.replicas.group=orders",
					"informer.replicas.identity=replica-1", "informer.replicas.lease-namespace=" + NAMESPACE,
					"informer.replicas.lease-duration=4s", "informer.replicas.renew-deadline=3s",
					"informer.replicas.retry-period=200ms", "informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + NAMESPACE);
	}

	/**
	 * A Lease written by a node whose clock is 30 s behind, with a 4 s lease duration.
	 */
	private static Lease memberLease(String name, String holder, boolean member) {
		ZonedDateTime behind = ZonedDateTime.now(ZoneOffset.UTC).minusSeconds(30);
		LeaseBuilder builder = new LeaseBuilder().withNewMetadata()
			.withName(name)
			.withNamespace(NAMESPACE)
			.endMetadata()
			.withNewSpec()
			.withHolderIdentity(holder)
			.withLeaseDurationSeconds(4)
			.withAcquireTime(behind)
			.withRenewTime(behind)
			.withLeaseTransitions(0)
			.endSpec();
		if (member) {
			builder.editMetadata().addToLabels(DeliveryOptions.GROUP_LABEL, "orders").endMetadata();
		}
		return builder.build();
	}

	/**
	 * Another replica, played by the test: renews its Lease every {@link #PERIOD_MS} with
	 * renew times 30 s behind.
	 */
	private final class Ghost {

		static final int PERIOD_MS = 250;

		private final Lease lease;

		private final CountDownLatch stopped = new CountDownLatch(1);

		private volatile int renewals;

		private volatile Thread thread;

		Ghost(Lease lease) {
			this.lease = lease;
		}

		void start() {
			DeliveryLeasesTests.this.client.leases().resource(this.lease).create();
			this.thread = new Thread(this::renew, "ghost-replica");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		private void renew() {
			try {
				while (!this.stopped.await(PERIOD_MS, TimeUnit.MILLISECONDS)) {
					ZonedDateTime behind = ZonedDateTime.now(ZoneOffset.UTC).minusSeconds(30);
					DeliveryLeasesTests.this.client.leases()
						.inNamespace(NAMESPACE)
						.withName(this.lease.getMetadata().getName())
						.edit((current) -> {
							current.getSpec().setRenewTime(behind);
							return current;
						});
					this.renewals++;
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (RuntimeException ex) {
				// the mock server closed at the end of the test
			}
		}

		void awaitRenewals(int count) {
			int target = this.renewals + count;
			await().atMost(Duration.ofSeconds(60)).until(() -> this.renewals >= target);
		}

		void stop() {
			this.stopped.countDown();
		}

	}

}
