package dev.informer.it;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.DeliveryRole;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.test.TestResources;
import dev.informer.watch.DeliverySnapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code informer.delivery.mode=leader} with two replicas (two application contexts, each
 * its own client and identity) against one real kube-apiserver: only the Lease holder
 * publishes; when the leader is cut off from the API server while a slow listener is
 * behind and changes keep coming, the standby takes over within the lease duration plus
 * the retry period (with fabric8's jitter), the old leader publishes nothing after its
 * renew deadline, and every change is published live or covered by the new leader's
 * replay; when the leader stops, it releases the Lease and the standby takes over.
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
		GroupRecorder recorder = new GroupRecorder();
		try (KubernetesClient admin = server.adminClient();
				TcpProxy proxy = server.newProxy();
				KubernetesClient clientA = new KubernetesClientBuilder().withConfig(server.adminConfigThrough(proxy))
					.build();
				KubernetesClient clientB = server.adminClient()) {
			TestResources.createNamespaces(admin, NAMESPACE);
			for (int i = 0; i < 20; i++) {
				create(admin, "before-" + i);
			}
			replica("a", clientA, recorder.listener("a", SLOW)).run((a) -> {
				await().atMost(Duration.ofSeconds(30)).until(() -> role(a) == DeliveryRole.LEADER);
				replica("b", clientB, recorder.listener("b", Duration.ZERO)).run((b) -> {
					await().atMost(Duration.ofSeconds(30))
						.until(() -> role(b) == DeliveryRole.STANDBY && "a".equals(holder(b)));
					// steady state: each change published once, by the leader
					for (int i = 0; i < 20; i++) {
						create(admin, "steady-" + i);
					}
					await().atMost(Duration.ofSeconds(30))
						.until(() -> recorder.view().keySet().containsAll(names("steady-", 20)));
					assertThat(recorder.by("b")).isEmpty();
					for (String name : names("steady-", 20)) {
						assertThat(recorder.liveEventsOf(name)).as(name).hasSize(1);
					}
					// a backlog behind a's slow listener,
					// then a is cut off while changes go on
					Map<String, String> expectedBefore = serverState(admin);
					assertThat(expectedBefore).isNotEmpty();
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
					Map<String, String> expected = serverState(admin);
					await().atMost(Duration.ofSeconds(60)).until(() -> recorder.view().equals(expected));
					// the old leader published nothing after its renew deadline
					Instant deadline = lastRenewal.plus(RENEW_DEADLINE);
					List<GroupRecorder.Published> late = recorder.by("a")
						.stream()
						.filter((p) -> p.at().isAfter(deadline))
						.toList();
					assertThat(late).as("published by a after its renew deadline %s", deadline).isEmpty();
					// it had not caught up: the deadline, not an empty queue, stopped it
					assertThat(recorder.by("a")).as("published by a").hasSizeLessThan(40 + BEFORE_CUT);
					Duration handover = Duration.between(lastRenewal, tookOver);
					// the Lease expires, then b's next attempt comes within
					// a retry period plus fabric8's jitter; the requests
					// themselves may take up to two more on a loaded machine
					Duration bound = LEASE_DURATION
						.plusMillis((long) (RETRY_PERIOD.toMillis() * (1 + JITTER)) + 2 * RETRY_PERIOD.toMillis());
					System.out.println("LeaderDeliveryIT: cut at " + cutAt + ", last renewal by a " + lastRenewal
							+ ", b leader after " + handover.toMillis() + " ms from a's last renewal ("
							+ Duration.between(cutAt, tookOver).toMillis() + " ms after the cut), bound "
							+ bound.toMillis() + " ms; a published " + recorder.by("a").size() + ", b "
							+ recorder.by("b").size() + " events");
					assertThat(handover).isLessThanOrEqualTo(bound);
					// a comes back as standby: still exactly one publisher
					proxy.restore();
					await().atMost(Duration.ofSeconds(30))
						.until(() -> role(a) == DeliveryRole.STANDBY && "b".equals(holder(a)));
					int publishedByA = recorder.by("a").size();
					for (int i = 0; i < 10; i++) {
						create(admin, "after-" + i);
					}
					Map<String, String> after = serverState(admin);
					await().atMost(Duration.ofSeconds(30)).until(() -> recorder.view().equals(after));
					assertThat(recorder.by("a")).hasSize(publishedByA);
					for (String name : names("after-", 10)) {
						assertThat(recorder.liveEventsOf(name)).as(name).hasSize(1);
					}
					// a stopping leader releases the Lease: the other takes over
					b.close();
					await().atMost(LEASE_DURATION).until(() -> role(a) == DeliveryRole.LEADER);
					churn(admin, 20);
					Map<String, String> end = serverState(admin);
					await().atMost(Duration.ofSeconds(60)).until(() -> recorder.view().equals(end));
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

	private static Map<String, String> serverState(KubernetesClient admin) {
		Map<String, String> state = new LinkedHashMap<>();
		for (ConfigMap cm : admin.configMaps().inNamespace(NAMESPACE).list().getItems()) {
			if (!cm.getMetadata().getName().equals("kube-root-ca.crt")) {
				state.put(cm.getMetadata().getName(), cm.getMetadata().getResourceVersion());
			}
		}
		return state;
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
			ApplicationListener<ApplicationEvent> listener) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> client, (definition) -> definition.setDestroyMethodName(""))
			.withBean("groupListener", ApplicationListener.class, () -> listener)
			.withPropertyValues("informer.delivery.mode=leader", "informer.delivery.group=it-leader",
					"informer.delivery.identity=" + identity, "informer.delivery.lease-namespace=" + NAMESPACE,
					"informer.delivery.lease-duration=" + LEASE_DURATION.toMillis() + "ms",
					"informer.delivery.renew-deadline=" + RENEW_DEADLINE.toMillis() + "ms",
					"informer.delivery.retry-period=" + RETRY_PERIOD.toMillis() + "ms",
					"informer.resources.configmaps.api-version=v1", "informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + NAMESPACE,
					"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt");
	}

}
