package dev.informer.test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ShardRange;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.DeliveryRole;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.watch.DeliverySnapshot;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The delivery invariant on a whole control plane ({@link ControlPlane}: two API servers
 * behind a balancer, the controllers, the scheduler, kwok nodes): while Deployments are
 * created, scaled, rolled and deleted at random, and the controllers answer with
 * ReplicaSets, Pods and Events, the API servers are restarted one at a time (as in an
 * upgrade) and then both killed for longer than
 * {@code informer.reliability.replace-stalled-after}. Each informer's listener must end
 * with exactly the server's objects and resourceVersions, having seen no add twice, no
 * update or delete of an object it did not hold, and every update's old state as the last
 * state it saw ({@link InvariantListener}). Pods are watched in all namespaces in full
 * and with {@code cache: metadata}, Deployments by {@code namespace-selector},
 * ReplicaSets, Nodes and Events everywhere. With several replicas (application contexts,
 * each its own client) in {@code leader} and {@code sharded} delivery mode, the leader's
 * listener, and each member's for the Pods it owns, end with the server's Pods through a
 * roll of the API servers, and the standby publishes nothing.
 * <p>
 * The seed is random and printed; rerun with {@code -Dinformer.control-plane.seed=N}.
 */
class ControlPlaneIT {

	private static final long SEED = Long.getLong("informer.control-plane.seed", new Random().nextLong());

	private static final String RERUN = "seed " + SEED + " (rerun with -Dinformer.control-plane.seed=" + SEED + ")";

	private static final int NODES = 20;

	private static final Duration PACE = Duration.ofMillis(150);

	private static final Duration REPLACE_STALLED_AFTER = Duration.ofSeconds(3);

	private static final Duration OUTAGE = REPLACE_STALLED_AFTER.multipliedBy(3);

	private static final String SELECTED = "informer.dev/it=control-plane";

	private static final List<String> INFORMERS = List.of("pods", "pod-metadata", "replicasets", "deployments", "nodes",
			"events");

	private static ControlPlane controlPlane;

	private static KubernetesClient admin;

	@BeforeAll
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	static void startControlPlane() {
		if (!ControlPlane.isInstalled() && !Boolean.parseBoolean(System.getenv(RequiresRealServer.REQUIRE))) {
			Assumptions.abort("No control-plane binaries (build them with 'bash scripts/envtest.sh'); set "
					+ RequiresRealServer.REQUIRE + "=true to fail instead of skipping");
		}
		controlPlane = ControlPlane.start(NODES);
		admin = controlPlane.adminClient();
		System.out.println("ControlPlaneIT: " + RERUN);
	}

	@AfterAll
	static void stopControlPlane() {
		if (admin != null) {
			admin.close();
		}
		if (controlPlane != null) {
			controlPlane.close();
		}
	}

	@Test
	@Timeout(value = 6, unit = TimeUnit.MINUTES)
	void informersOverAClusterEndWithItsStateThroughAnApiServerRollAndAnOutage() {
		createNamespace("cp-a", true);
		createNamespace("cp-b", true);
		createNamespace("cp-c", false);
		Map<String, Supplier<Map<String, String>>> server = new LinkedHashMap<>();
		server.put("pods", () -> DeploymentChurn.state(admin.pods().inAnyNamespace().list().getItems()));
		server.put("pod-metadata", server.get("pods"));
		server.put("replicasets",
				() -> DeploymentChurn.state(admin.apps().replicaSets().inAnyNamespace().list().getItems()));
		server.put("deployments", () -> {
			Map<String, String> state = DeploymentChurn
				.state(admin.apps().deployments().inNamespace("cp-a").list().getItems());
			state.putAll(DeploymentChurn.state(admin.apps().deployments().inNamespace("cp-b").list().getItems()));
			return state;
		});
		server.put("nodes", () -> DeploymentChurn.state(admin.nodes().list().getItems()));
		server.put("events", () -> DeploymentChurn.state(admin.v1().events().inAnyNamespace().list().getItems()));
		try (KubernetesClient client = controlPlane.adminClient()) {
			ApplicationContextRunner runner = runner(client);
			for (String informer : INFORMERS) {
				// the Pods' listener is slow, so changes
				// queue behind it through the disruptions
				Duration work = informer.equals("pods") ? Duration.ofMillis(3) : Duration.ZERO;
				runner = runner.withBean(informer + "Listener", InvariantListener.class,
						() -> new InvariantListener(SEED, work).forInformer(informer));
			}
			runner.run((context) -> {
				DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
				Watch pods = registry.informer("pods").getWatches().get(0);
				DeploymentChurn churn = new DeploymentChurn(admin, List.of("cp-a", "cp-b", "cp-c"), SEED);

				long stalledBeforeRoll = pods.snapshot().lists().relistCount(RelistReason.STALLED);
				long rollStarted = System.nanoTime();
				CompletableFuture<Void> roll = CompletableFuture.runAsync(controlPlane::rollApiServers);
				churn.run(40, PACE, roll::isDone);
				roll.join();
				long rollMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - rollStarted);

				long stalledBefore = pods.snapshot().lists().relistCount(RelistReason.STALLED);
				long stalledInRoll = stalledBefore - stalledBeforeRoll;
				controlPlane.killApiServers();
				await("the Pods' watch lost").pollDelay(OUTAGE)
					.atMost(OUTAGE.plusSeconds(60))
					.until(() -> !pods.snapshot().connection().watching());
				controlPlane.startApiServers();
				churn.run(30, PACE, () -> true);
				churn.awaitSettled(Duration.ofMinutes(3));
				System.out.printf(
						"ControlPlaneIT: %d changes (%d failed while an API server went down); roll of both API "
								+ "servers %d ms (Pods' watch replaced as stalled %d times); outage %d s (replaced %d "
								+ "times); Pods' watch reconnects: %d%n",
						churn.steps(), churn.failures(), rollMillis, stalledInRoll, OUTAGE.toSeconds(),
						pods.snapshot().lists().relistCount(RelistReason.STALLED) - stalledBefore,
						pods.snapshot().connection().reconnects());
				for (String informer : INFORMERS) {
					InvariantListener listener = context.getBean(informer + "Listener", InvariantListener.class);
					listener.awaitReplayOf(server.get(informer), informer + ", " + RERUN, Duration.ofSeconds(90));
					System.out.printf("ControlPlaneIT: %s: %d events, %d objects%n", informer, listener.eventCount(),
							listener.applied().size());
				}
				assertThat(context.getBean("podsListener", InvariantListener.class).applied())
					.as("Pods of Deployments ran on kwok nodes")
					.isNotEmpty();
				assertThat(pods.snapshot().connection().reconnects())
					.as("the Pods' watch reconnected through the roll and the outage")
					.isGreaterThanOrEqualTo(1);
			});
		}
	}

	@Test
	@Timeout(value = 6, unit = TimeUnit.MINUTES)
	void inLeaderAndShardedModeEachPodIsPublishedByOneReplicaThroughAnApiServerRoll() throws Throwable {
		String namespace = "cp-replicas";
		createNamespace(namespace, false);
		List<String> leaders = List.of("l1", "l2");
		List<String> members = List.of("s1", "s2", "s3");
		List<String> identities = new ArrayList<>(leaders);
		identities.addAll(members);
		List<KubernetesClient> clients = new ArrayList<>();
		List<ApplicationContextRunner> replicas = new ArrayList<>();
		for (String identity : identities) {
			KubernetesClient client = controlPlane.adminClient();
			clients.add(client);
			String mode = leaders.contains(identity) ? "leader" : "sharded";
			replicas.add(replica(client, namespace, mode, identity));
		}
		try {
			runAll(replicas, List.of(), (contexts) -> {
				Map<String, AssertableApplicationContext> replica = new LinkedHashMap<>();
				for (int i = 0; i < identities.size(); i++) {
					assertThat(contexts.get(i)).hasNotFailed();
					replica.put(identities.get(i), contexts.get(i));
				}
				await("one leader and three members").atMost(Duration.ofSeconds(60))
					.until(() -> leaders.stream()
						.filter((id) -> role(replica.get(id)) == DeliveryRole.LEADER)
						.count() == 1
							&& members.stream().allMatch((id) -> sharding(replica.get(id)).members().equals(members)));
				DeploymentChurn churn = new DeploymentChurn(admin, List.of(namespace), SEED);
				CompletableFuture<Void> roll = CompletableFuture.runAsync(controlPlane::rollApiServers);
				churn.run(40, PACE, roll::isDone);
				roll.join();
				churn.run(20, PACE, () -> true);
				churn.awaitSettled(Duration.ofMinutes(3));
				Map<String, String> uids = new HashMap<>();
				Supplier<List<Pod>> pods = () -> admin.pods().inNamespace(namespace).list().getItems();
				String leader = leaders.stream()
					.filter((id) -> role(replica.get(id)) == DeliveryRole.LEADER)
					.findFirst()
					.orElseThrow();
				listener(replica.get(leader)).awaitReplayOf(() -> DeploymentChurn.state(pods.get()),
						"leader " + leader + ", " + RERUN, Duration.ofSeconds(90));
				for (String standby : leaders) {
					if (!standby.equals(leader)) {
						assertThat(listener(replica.get(standby)).eventCount())
							.as("events published by the standby %s (%s)", standby, RERUN)
							.isZero();
					}
				}
				for (String member : members) {
					assertThat(sharding(replica.get(member)).members()).as("members seen by %s", member)
						.isEqualTo(members);
					listener(replica.get(member)).awaitReplayOf(() -> {
						List<Pod> all = pods.get();
						all.forEach((pod) -> uids.put(pod.getMetadata().getName(), pod.getMetadata().getUid()));
						return DeploymentChurn.state(all.stream()
							.filter((pod) -> owner(pod.getMetadata().getUid(), members).equals(member))
							.toList());
					}, "member " + member + ", " + RERUN, Duration.ofSeconds(90));
				}
				System.out.printf("ControlPlaneIT: replicas: %d changes; %d Pods; events published: %s%n",
						churn.steps(), uids.size(),
						identities.stream()
							.map((id) -> id + "=" + listener(replica.get(id)).eventCount())
							.collect(Collectors.joining(", ")));
			});
		}
		finally {
			clients.forEach(KubernetesClient::close);
		}
	}

	private static void runAll(List<ApplicationContextRunner> runners, List<AssertableApplicationContext> started,
			ReplicasConsumer body) throws Throwable {
		if (started.size() == runners.size()) {
			body.accept(started);
			return;
		}
		runners.get(started.size()).run((context) -> {
			List<AssertableApplicationContext> next = new ArrayList<>(started);
			next.add(context);
			runAll(runners, next, body);
		});
	}

	/**
	 * The member that owns an object, computed independently of the starter: FNV-1a 64 of
	 * its uid, in the ranges fabric8 renders for the API server, members sorted.
	 */
	private static String owner(String uid, List<String> members) {
		long hash = 0xcbf29ce484222325L;
		for (byte b : uid.getBytes(StandardCharsets.UTF_8)) {
			hash ^= (b & 0xff);
			hash *= 0x100000001b3L;
		}
		BigInteger value = new BigInteger(Long.toUnsignedString(hash));
		List<String> sorted = members.stream().sorted().toList();
		for (int i = 0; i < sorted.size(); i++) {
			ShardRange range = ShardRange.ofShard(i, sorted.size());
			if (value.compareTo(range.getStart()) >= 0 && value.compareTo(range.getEnd()) < 0) {
				return sorted.get(i);
			}
		}
		throw new IllegalStateException("no owner for " + uid);
	}

	private static InvariantListener listener(AssertableApplicationContext context) {
		return context.getBean(InvariantListener.class);
	}

	private static DeliveryRole role(AssertableApplicationContext context) {
		return context.getBean(DeliveryCoordinator.class).snapshot().leadership().role();
	}

	private static DeliverySnapshot.Sharding sharding(AssertableApplicationContext context) {
		return context.getBean(DeliveryCoordinator.class).snapshot().sharding();
	}

	private static ApplicationContextRunner replica(KubernetesClient client, String namespace, String mode,
			String identity) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> client, (definition) -> definition.setDestroyMethodName(""))
			.withBean(InvariantListener.class, () -> new InvariantListener().forInformer("pods"))
			.withPropertyValues("informer.replicas.mode=" + mode, "informer.replicas.group=" + namespace + "-" + mode,
					"informer.replicas.identity=" + identity, "informer.replicas.lease-namespace=" + namespace,
					"informer.replicas.lease-duration=10s", "informer.replicas.renew-deadline=7s",
					"informer.replicas.retry-period=1s", "informer.resources.pods.api-version=v1",
					"informer.resources.pods.kind=Pod", "informer.resources.pods.namespaces=" + namespace,
					"informer.startup.timeout=2m");
	}

	private static void createNamespace(String name, boolean selected) {
		NamespaceBuilder namespace = new NamespaceBuilder().withNewMetadata().withName(name).endMetadata();
		if (selected) {
			String[] label = SELECTED.split("=");
			namespace.editMetadata().addToLabels(label[0], label[1]).endMetadata();
		}
		admin.namespaces().resource(namespace.build()).create();
	}

	private static ApplicationContextRunner runner(KubernetesClient client) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> client, (definition) -> definition.setDestroyMethodName(""))
			.withPropertyValues("informer.resources.pods.api-version=v1", "informer.resources.pods.kind=Pod",
					"informer.resources.pod-metadata.api-version=v1", "informer.resources.pod-metadata.kind=Pod",
					"informer.resources.pod-metadata.cache=metadata",
					"informer.resources.replicasets.api-version=apps/v1",
					"informer.resources.replicasets.kind=ReplicaSet",
					"informer.resources.deployments.api-version=apps/v1",
					"informer.resources.deployments.kind=Deployment",
					"informer.resources.deployments.namespace-selector=" + SELECTED,
					"informer.resources.nodes.api-version=v1", "informer.resources.nodes.kind=Node",
					"informer.resources.events.api-version=v1", "informer.resources.events.kind=Event",
					"informer.reliability.replace-stalled-after=" + REPLACE_STALLED_AFTER.toSeconds() + "s",
					"informer.startup.timeout=2m");
	}

	/**
	 * What a test does with its started replicas.
	 */
	@FunctionalInterface
	private interface ReplicasConsumer {

		void accept(List<AssertableApplicationContext> contexts) throws Throwable;

	}

}
