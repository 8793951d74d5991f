package dev.informer.it;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.DeliveryRole;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.test.ContractChecker;
import dev.informer.test.InvariantListener;
import dev.informer.test.ReceivedEvent;
import dev.informer.test.TestResources;
import dev.informer.watch.DeliverySnapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code informer.replicas.mode=leader} with two replicas (two application contexts, each
 * its own client and identity) against one real kube-apiserver: only the Lease holder
 * publishes; when the leader is cut off from the API server while a slow listener is
 * behind and changes keep coming, the standby takes over within the lease duration plus
 * the retry period (with fabric8's jitter), the old leader publishes nothing live after
 * its renew deadline (only, once back, the deletes its lapse kept back, as replays), and
 * the events both published, folded by the {@link ContractChecker}, equal the server's
 * objects; when the leader stops, it releases the Lease and the standby takes over.
 */
class LeaderDeliveryIT {

	private static final String NAMESPACE = "it-leader";

	/**
	 * Short Lease times so that the test is quick; run with
	 * {@code -Dinformer.it.lease=15000,10000,2000} to measure the defaults.
	 */
	private static final long[] LEASE = java.util.Arrays
		.stream(System.getProperty("informer.it.lease", "4000,3000,500").split(","))
		.mapToLong(Long::parseLong)
		.toArray();

	private static final Duration LEASE_DURATION = Duration.ofMillis(LEASE[0]);

	private static final Duration RENEW_DEADLINE = Duration.ofMillis(LEASE[1]);

	private static final Duration RETRY_PERIOD = Duration.ofMillis(LEASE[2]);

	/**
	 * a's listener: the changes made before the cut take it about twice the renew
	 * deadline, so a still has events to publish when it must stop.
	 */
	private static final Duration SLOW = Duration.ofMillis(100);

	private static final int BEFORE_CUT = (int) Math.max(80, 2 * RENEW_DEADLINE.toMillis() / SLOW.toMillis());

	/** fabric8 waits up to 1 + 1.2 retry periods between attempts to acquire. */
	private static final double JITTER = 1.2;

	private final Random random = new Random(20261201L);

	@Test
	void oneReplicaPublishesAndTheOtherTakesOverWhenTheLeaderIsCutOff() throws Exception {
		RealApiServer server = RealApiServer.get();
		ContractChecker checker = ContractChecker.byResourceVersion();
		try (KubernetesClient admin = server.adminClient();
				TcpProxy proxy = server.newProxy();
				KubernetesClient clientA = new KubernetesClientBuilder().withConfig(server.adminConfigThrough(proxy))
					.build();
				KubernetesClient clientB = server.adminClient()) {
			TestResources.createNamespaces(admin, NAMESPACE);
			for (int i = 0; i < 20; i++) {
				create(admin, "before-" + i);
			}
			replica("a", clientA, listener(checker, "a", SLOW)).run((a) -> {
				await().atMost(Duration.ofSeconds(30)).until(() -> role(a) == DeliveryRole.LEADER);
				replica("b", clientB, listener(checker, "b", Duration.ZERO)).run((b) -> {
					await().atMost(Duration.ofSeconds(30))
						.until(() -> role(b) == DeliveryRole.STANDBY && "a".equals(holder(b)));
					// steady state: each change published once, by the leader
					for (int i = 0; i < 20; i++) {
						create(admin, "steady-" + i);
					}
					awaitEqual(checker, admin, Duration.ofSeconds(30), "steady state");
					assertThat(checker.by("b")).isEmpty();
					for (String name : names("steady-", 20)) {
						assertThat(checker.liveEventsOf(name)).as(name).hasSize(1);
					}
					// a backlog behind a's slow listener,
					// then a is cut off while changes go on
					assertThat(admin.configMaps().inNamespace(NAMESPACE).list().getItems()).isNotEmpty();
					churn(admin, BEFORE_CUT);
					Instant cutAt = Instant.now();
					proxy.cut();
					churn(admin, 60);
					await().atMost(LEASE_DURATION.multipliedBy(4)).until(() -> role(b) == DeliveryRole.LEADER);
					Instant tookOver = Instant.now();
					DeliverySnapshot.Leadership old = snapshot(a).leadership();
					assertThat(old.lastRenewal()).isNotNull();
					Instant lastRenewal = old.lastRenewal();
					churn(admin, 30);
					awaitEqual(checker, admin, Duration.ofSeconds(60), "after b took over");
					// the old leader published nothing after its renew deadline (a
					// former leader's replayed deletes aside, once it sees the new one)
					Instant deadline = lastRenewal.plus(RENEW_DEADLINE);
					List<ReceivedEvent> late = checker.by("a")
						.stream()
						.filter((d) -> d.at().isAfter(deadline) && !d.replay())
						.toList();
					assertThat(late).as("published by a after its renew deadline %s", deadline).isEmpty();
					// it had not caught up: the deadline, not an empty queue, stopped it
					assertThat(checker.by("a")).as("published by a").hasSizeLessThan(40 + BEFORE_CUT);
					Duration handover = Duration.between(lastRenewal, tookOver);
					// the Lease expires, then b's next attempt comes within
					// a retry period plus fabric8's jitter; the requests
					// themselves may take up to two more on a loaded machine
					Duration bound = LEASE_DURATION
						.plusMillis((long) (RETRY_PERIOD.toMillis() * (1 + JITTER)) + 2 * RETRY_PERIOD.toMillis());
					System.out.println("LeaderDeliveryIT: cut at " + cutAt + ", last renewal by a " + lastRenewal
							+ ", b leader after " + handover.toMillis() + " ms from a's last renewal ("
							+ Duration.between(cutAt, tookOver).toMillis() + " ms after the cut), bound "
							+ bound.toMillis() + " ms; a published " + checker.by("a").size() + ", b "
							+ checker.by("b").size() + " events");
					assertThat(handover).isLessThanOrEqualTo(bound);
					// a comes back as standby: still exactly one publisher
					proxy.restore();
					await().atMost(Duration.ofSeconds(30))
						.until(() -> role(a) == DeliveryRole.STANDBY && "b".equals(holder(a)));
					// what a publishes from now on: the deletes its lapse kept back, as
					// replays (b may never have seen those objects), nothing live
					int publishedByA = checker.by("a").size();
					for (int i = 0; i < 10; i++) {
						create(admin, "after-" + i);
					}
					awaitEqual(checker, admin, Duration.ofSeconds(30), "after a came back");
					assertThat(checker.by("a").subList(publishedByA, checker.by("a").size()))
						.as("published by a as a standby")
						.allSatisfy((d) -> assertThat(d.replay() && d.type() == ReceivedEvent.Type.DELETED).as("%s", d)
							.isTrue());
					for (String name : names("after-", 10)) {
						assertThat(checker.liveEventsOf(name)).as(name).hasSize(1);
					}
					// a stopping leader releases the Lease: the other takes over
					b.close();
					await().atMost(LEASE_DURATION).until(() -> role(a) == DeliveryRole.LEADER);
					churn(admin, 20);
					awaitEqual(checker, admin, Duration.ofSeconds(60), "after b stopped");
				});
			});
		}
	}

	private void churn(KubernetesClient admin, int changes) {
		List<String> names = admin.configMaps()
			.inNamespace(NAMESPACE)
			.list()
			.getItems()
			.stream()
			.map((cm) -> cm.getMetadata().getName())
			.filter((name) -> !name.equals("kube-root-ca.crt"))
			.collect(Collectors.toList());
		for (int i = 0; i < changes; i++) {
			int choice = this.random.nextInt(10);
			if (choice < 2 || names.isEmpty()) {
				String name = "churn-" + this.random.nextInt(1_000_000);
				create(admin, name);
				names.add(name);
			}
			else if (choice < 4) {
				String name = names.remove(this.random.nextInt(names.size()));
				admin.configMaps().inNamespace(NAMESPACE).withName(name).delete();
			}
			else {
				String name = names.get(this.random.nextInt(names.size()));
				admin.configMaps()
					.inNamespace(NAMESPACE)
					.withName(name)
					.edit((cm) -> TestResources.configMap(NAMESPACE, name, "v" + this.random.nextInt()));
			}
		}
	}

	private static void create(KubernetesClient admin, String name) {
		admin.configMaps().inNamespace(NAMESPACE).resource(TestResources.configMap(NAMESPACE, name, "v0")).create();
	}

	/**
	 * Wait until the group's events, folded, equal the server's ConfigMaps.
	 */
	private static void awaitEqual(ContractChecker checker, KubernetesClient admin, Duration atMost, String when) {
		checker.awaitEqual(() -> checker.serverState(admin.configMaps()
			.inNamespace(NAMESPACE)
			.withoutField("metadata.name", "kube-root-ca.crt")
			.list()
			.getItems()), Set::of, (replica) -> true, atMost, "LeaderDeliveryIT " + when);
	}

	private static InvariantListener listener(ContractChecker checker, String replica, Duration work) {
		return new InvariantListener(0, work, work).forInformer("configmaps").reportingTo(checker, replica).withPeers();
	}

	private static List<String> names(String prefix, int count) {
		return java.util.stream.IntStream.range(0, count).mapToObj((i) -> prefix + i).toList();
	}

	private static DeliverySnapshot snapshot(AssertableApplicationContext context) {
		return context.getBean(DeliveryCoordinator.class).snapshot();
	}

	private static DeliveryRole role(AssertableApplicationContext context) {
		return snapshot(context).leadership().role();
	}

	private static String holder(AssertableApplicationContext context) {
		return snapshot(context).leadership().leaseHolder();
	}

	private static ApplicationContextRunner replica(String identity, KubernetesClient client,
			InvariantListener listener) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> client, (definition) -> definition.setDestroyMethodName(""))
			.withBean("groupListener", InvariantListener.class, () -> listener)
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=it-leader",
					"informer.replicas.identity=" + identity, "informer.replicas.lease-namespace=" + NAMESPACE,
					"informer.replicas.lease-duration=" + LEASE_DURATION.toMillis() + "ms",
					"informer.replicas.renew-deadline=" + RENEW_DEADLINE.toMillis() + "ms",
					"informer.replicas.retry-period=" + RETRY_PERIOD.toMillis() + "ms",
					"informer.resources.configmaps.api-version=v1", "informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + NAMESPACE,
					"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt");
	}

}
