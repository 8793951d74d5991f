package dev.informer.it;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.DeliveryRole;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.test.ContractChecker;
import dev.informer.test.InvariantListener;
import dev.informer.test.ReceivedEvent;
import dev.informer.test.TestResources;
import dev.informer.watch.DeliverySnapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code informer.replicas.mode=sharded} with three replicas (three application contexts,
 * each its own client and identity) against one real kube-apiserver: every object's
 * events come from exactly one replica, the one whose range holds the FNV-1a hash of its
 * uid (computed here independently); when a replica leaves, its objects move to the
 * others, which replay them. With the server's shard selectors
 * ({@code --feature-gates=ShardedListAndWatch=true}) each replica's cache holds exactly
 * its range.
 */
class ShardedDeliveryIT {

	private static final List<String> REPLICAS = List.of("a", "b", "c");

	@Test
	void everyObjectIsPublishedByExactlyOneReplicaAndMovesWhenItsOwnerLeaves() {
		RealApiServer server = RealApiServer.get();
		run(server, "it-sharded", false, 90);
	}

	@Test
	void withTheServersShardSelectorsEachReplicaCachesOnlyItsRange() {
		try (RealApiServer server = RealApiServer.startDedicated("--feature-gates=ShardedListAndWatch=true")) {
			run(server, "it-sharded-server", true, 300);
		}
	}

	private void run(RealApiServer server, String namespace, boolean serverSharding, int objects) {
		ContractChecker checker = ContractChecker.byResourceVersion();
		try (KubernetesClient admin = server.adminClient();
				KubernetesClient clientA = server.adminClient();
				KubernetesClient clientB = server.adminClient();
				KubernetesClient clientC = server.adminClient()) {
			TestResources.createNamespaces(admin, namespace);
			replica("a", namespace, clientA, listener(checker, "a", Duration.ofMillis(2))).run((a) -> replica("b",
					namespace, clientB, listener(checker, "b", Duration.ZERO))
				.run((b) -> replica("c", namespace, clientC, listener(checker, "c", Duration.ofMillis(1))).run((c) -> {
					List<AssertableApplicationContext> all = List.of(a, b, c);
					await().atMost(Duration.ofSeconds(30))
						.until(() -> all.stream()
							.allMatch((r) -> sharding(r).members().equals(REPLICAS)
									&& sharding(r).role() == DeliveryRole.MEMBER));
					assertThat(sharding(a).serverSharding()).isEqualTo(serverSharding);
					if (serverSharding) {
						// the steady state begins once each replica watches its range: an
						// object created while a range moves reaches the member that
						// gains
						// it by its relist, as a replayed add
						await().atMost(Duration.ofSeconds(30))
							.until(() -> all.stream()
								.allMatch((r) -> watchesWithSelector(server, namespace,
										String.join(",", sharding(r).ownedRanges()))));
					}
					// steady state: every change is published once, by its owner
					for (int i = 0; i < objects; i++) {
						admin.configMaps()
							.inNamespace(namespace)
							.resource(TestResources.configMap(namespace, "obj-" + i, "v0"))
							.create();
					}
					Map<String, String> uids = uids(admin, namespace);
					await().atMost(Duration.ofSeconds(60))
						.untilAsserted(
								() -> assertThat(names(objects))
									.as("created objects without a live event, and what was delivered of them")
									.allSatisfy((name) -> assertThat(checker.liveEventsOf(name)).as("%s: %s", name,
											checker.deliveries().stream().filter((d) -> d.name().equals(name)).toList())
										.isNotEmpty()));
					for (String name : names(objects)) {
						List<ReceivedEvent> events = checker.liveEventsOf(name);
						assertThat(events).as(name).hasSize(1);
						assertThat(events.get(0).replica()).as("publisher of %s", name)
							.isEqualTo(owner(uids.get(name), REPLICAS));
					}
					if (serverSharding) {
						// each cache holds exactly its range:
						// about a third of the objects
						Map<String, Set<String>> caches = new HashMap<>();
						for (int i = 0; i < all.size(); i++) {
							caches.put(REPLICAS.get(i), cached(all.get(i)));
						}
						System.out.println("ShardedDeliveryIT: " + objects + " objects, caches of 3 replicas: "
								+ caches.entrySet()
									.stream()
									.map((e) -> e.getKey() + "=" + e.getValue().size())
									.collect(Collectors.joining(", ")));
						for (String replica : REPLICAS) {
							Set<String> expected = names(objects).stream()
								.filter((name) -> owner(uids.get(name), REPLICAS).equals(replica))
								.collect(Collectors.toSet());
							assertThat(caches.get(replica)).as("cache of %s", replica).isEqualTo(expected);
						}
						assertThat(server.requests("list", "configmaps", namespace)).as("lists with a shard selector")
							.anyMatch((request) -> request.uri().toString().contains("shardSelector="));
					}
					// c leaves: its objects move to a and b, which replay them
					c.close();
					List<String> remaining = List.of("a", "b");
					await().atMost(Duration.ofSeconds(30))
						.until(() -> List.of(a, b).stream().allMatch((r) -> sharding(r).members().equals(remaining)));
					Set<String> ofC = names(objects).stream()
						.filter((name) -> owner(uids.get(name), REPLICAS).equals("c"))
						.collect(Collectors.toSet());
					assertThat(ofC).isNotEmpty();
					await().atMost(Duration.ofSeconds(60))
						.until(() -> ofC.stream()
							.allMatch((name) -> checker.deliveries()
								.stream()
								.anyMatch((d) -> d.name().equals(name) && d.label().equals("replay")
										&& d.replica().equals(owner(uids.get(name), remaining)))));
					int before = checker.deliveries().size();
					for (String name : names(objects)) {
						admin.configMaps()
							.inNamespace(namespace)
							.withName(name)
							.edit((cm) -> TestResources.configMap(namespace, name, "v1"));
					}
					await().atMost(Duration.ofSeconds(60))
						.until(() -> names(objects).stream()
							.allMatch((name) -> checker.liveEventsOf(name).size() >= 2));
					List<ReceivedEvent> deliveries = checker.deliveries();
					List<ReceivedEvent> updates = deliveries.subList(before, deliveries.size())
						.stream()
						.filter((d) -> d.label().equals("updated"))
						.toList();
					for (String name : names(objects)) {
						List<ReceivedEvent> ofName = updates.stream().filter((d) -> d.name().equals(name)).toList();
						assertThat(ofName).as("updates of %s", name).hasSize(1);
						assertThat(ofName.get(0).replica()).as("publisher of %s", name)
							.isEqualTo(owner(uids.get(name), remaining));
					}
					// nothing lost: the group's events, folded, equal the server
					checker.awaitEqual(
							() -> checker.serverState(admin.configMaps()
								.inNamespace(namespace)
								.withoutField("metadata.name", "kube-root-ca.crt")
								.list()
								.getItems()),
							Set::of, (replica) -> true, Duration.ofSeconds(60), "ShardedDeliveryIT after c left");
					if (serverSharding) {
						Set<String> union = new HashSet<>(cached(a));
						Set<String> ofB = cached(b);
						assertThat(union).doesNotContainAnyElementsOf(ofB);
						union.addAll(ofB);
						assertThat(union).isEqualTo(new HashSet<>(names(objects)));
						System.out.println(
								"ShardedDeliveryIT: after c left, caches a=" + cached(a).size() + ", b=" + ofB.size());
					}
				})));
		}
	}

	private static InvariantListener listener(ContractChecker checker, String replica, Duration work) {
		return new InvariantListener(0, work, work).forInformer("configmaps").reportingTo(checker, replica).withPeers();
	}

	/**
	 * Whether a watch with the shard selector {@code selector} has started: the audit log
	 * records a watch when its response starts, after the list it follows.
	 */
	private static boolean watchesWithSelector(RealApiServer server, String namespace, String selector) {
		return server.requests("watch", "configmaps", namespace)
			.stream()
			.map((request) -> request.parameter("shardSelector"))
			.anyMatch(selector::equals);
	}

	private static String owner(String uid, List<String> members) {
		return ShardOwner.of(uid, members);
	}

	private static Map<String, String> uids(KubernetesClient admin, String namespace) {
		Map<String, String> uids = new HashMap<>();
		for (ConfigMap cm : admin.configMaps().inNamespace(namespace).list().getItems()) {
			uids.put(cm.getMetadata().getName(), cm.getMetadata().getUid());
		}
		return uids;
	}

	private static Set<String> cached(AssertableApplicationContext context) {
		return context.getBean(DefaultInformerRegistry.class)
			.informer("configmaps")
			.getCache()
			.list()
			.stream()
			.map((resource) -> ((HasMetadata) resource).getMetadata().getName())
			.collect(Collectors.toSet());
	}

	private static List<String> names(int count) {
		return IntStream.range(0, count).mapToObj((i) -> "obj-" + i).toList();
	}

	private static DeliverySnapshot.Sharding sharding(AssertableApplicationContext context) {
		return context.getBean(DeliveryCoordinator.class).snapshot().sharding();
	}

	private static ApplicationContextRunner replica(String identity, String namespace, KubernetesClient client,
			InvariantListener listener) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> client, (definition) -> definition.setDestroyMethodName(""))
			.withBean("groupListener", InvariantListener.class, () -> listener)
			.withPropertyValues("informer.replicas.mode=sharded", "informer.replicas.group=" + namespace,
					"informer.replicas.identity=" + identity, "informer.replicas.lease-namespace=" + namespace,
					"informer.replicas.lease-duration=4s", "informer.replicas.renew-deadline=3s",
					"informer.replicas.retry-period=500ms", "informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + namespace,
					"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt");
	}

}
