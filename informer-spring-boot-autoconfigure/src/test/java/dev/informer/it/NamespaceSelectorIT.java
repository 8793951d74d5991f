package dev.informer.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.InformerState;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.metrics.InformerMetrics;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.InvariantListener;
import dev.informer.test.RandomChanges;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code namespace-selector} on the real API server, which decides what matches: a
 * namespace labelled joins, one unlabelled leaves (the server reports it as deleted from
 * the selection), one deleted leaves. The listener's view is compared with the server's
 * selected objects at every quiet point, with a slow listener so that namespaces leave
 * while their events are queued; 100 namespaces churned in a loop must leave no watch,
 * thread or meter behind. There is no controller manager here, so a deleted namespace is
 * finalized by the test (its objects stay in etcd, outside any namespace that matches).
 * Override the seed with {@code -Dinformer.invariant.seed=N}.
 */
class NamespaceSelectorIT {

	private static final long SEED = Long.getLong("informer.invariant.seed", 20261201L);

	private static final String RERUN = "seed " + SEED + " (rerun with -Dinformer.invariant.seed=" + SEED + ")";

	private static KubernetesClient admin;

	private static KubernetesClient informerClient;

	private final ApplicationContextRunner runner = InformerContexts.runner(() -> informerClient);

	@BeforeAll
	static void connect() {
		RealApiServer server = RealApiServer.get();
		admin = server.adminClient();
		informerClient = new KubernetesClientBuilder().withConfig(server.adminConfig()).build();
	}

	@AfterAll
	static void disconnect() {
		informerClient.close();
		admin.close();
	}

	@Test
	void listenersViewEqualsTheServersSelectionWhileNamespacesComeAndGo() {
		String label = "it-nssel";
		List<String> namespaces = List.of("it-nssel-0", "it-nssel-1", "it-nssel-2", "it-nssel-3", "it-nssel-4");
		Random random = new Random(SEED);
		Map<String, RandomChanges> changes = new LinkedHashMap<>();
		for (int i = 0; i < namespaces.size(); i++) {
			String namespace = namespaces.get(i);
			createNamespace(namespace, label, i < 3);
			RandomChanges stream = new RandomChanges(admin, namespace, SEED + i, 15);
			stream.createAll();
			changes.put(namespace, stream);
		}
		Supplier<Map<String, String>> selected = () -> selectedState(label, changes);
		this.runner.withBean(InvariantListener.class, () -> new InvariantListener(SEED, Duration.ofMillis(3)))
			.withPropertyValues("informer.resources.tenants.api-version=v1",
					"informer.resources.tenants.kind=ConfigMap",
					"informer.resources.tenants.namespace-selector=" + label + "=on",
					"informer.resources.tenants.field-selector=metadata.name!=kube-root-ca.crt")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				System.out.println("NamespaceSelectorIT: " + RERUN);
				InvariantListener listener = context.getBean(InvariantListener.class);
				DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
				listener.awaitReplayOf(selected, RERUN + ", at start", Duration.ofSeconds(60));
				for (int round = 0; round < 12; round++) {
					// objects change in every namespace while namespaces come and go
					for (int step = 0; step < 4; step++) {
						String namespace = namespaces.get(random.nextInt(namespaces.size()));
						if (exists(namespace)) {
							changes.get(namespace).run(10, 0, (dice) -> {
							});
						}
						String target = namespaces.get(random.nextInt(namespaces.size()));
						int dice = random.nextInt(10);
						if (!exists(target)) {
							createNamespace(target, label, dice < 7);
						}
						else if (dice < 4) {
							label(target, label, !isLabelled(target, label));
						}
						else if (dice < 5) {
							deleteNamespace(target);
						}
					}
					listener.awaitReplayOf(selected, RERUN + ", round " + round, Duration.ofSeconds(60));
					assertThat(registry.informer("tenants").getWatches()).extracting(Watch::getNamespace)
						.as("the watches, round " + round)
						.containsExactlyInAnyOrderElementsOf(selectedNamespaces(label));
				}
			});
		namespaces.forEach(NamespaceSelectorIT::deleteNamespace);
	}

	@Test
	void aFlappingLabelLeavesOneWatchAndAViewEqualToTheServer() {
		String label = "it-flap";
		String namespace = "it-flap-0";
		createNamespace(namespace, label, true);
		RandomChanges changes = new RandomChanges(admin, namespace, SEED, 30);
		changes.createAll();
		this.runner
			.withBean(InvariantListener.class,
					() -> new InvariantListener(SEED, Duration.ofMillis(2), Duration.ofMillis(8)))
			.withPropertyValues("informer.resources.flap.api-version=v1", "informer.resources.flap.kind=ConfigMap",
					"informer.resources.flap.namespace-selector=" + label + "=on",
					"informer.resources.flap.field-selector=metadata.name!=kube-root-ca.crt")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				InvariantListener listener = context.getBean(InvariantListener.class);
				DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
				SimpleMeterRegistry meters = new SimpleMeterRegistry();
				new InformerMetrics(registry).bindTo(meters);
				int metersOfOneWatch = watchMeters(meters).size();
				// faster than the slow listener delivers:
				// leaves and joins queue up behind it
				for (int flap = 0; flap < 30; flap++) {
					label(namespace, label, flap % 2 == 1);
					changes.run(2, 0, (dice) -> {
					});
				}
				Supplier<Map<String, String>> selected = () -> isLabelled(namespace, label) ? changes.serverState()
						: Map.of();
				listener.awaitReplayOf(selected, RERUN + ", after flapping", Duration.ofSeconds(90));
				assertThat(registry.informer("flap").getWatches()).extracting(Watch::getNamespace)
					.containsExactly(namespace);
				await().atMost(Duration.ofSeconds(30))
					.untilAsserted(() -> assertThat(watchMeters(meters)).hasSize(metersOfOneWatch));
				label(namespace, label, false);
				listener.awaitReplayOf(Map::of, RERUN + ", unlabelled", Duration.ofSeconds(60));
				await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(watchMeters(meters)).isEmpty());
				assertThat(registry.informer("flap").getWatches()).isEmpty();
			});
		deleteNamespace(namespace);
	}

	@Test
	void hundredNamespacesChurnedLeaveNoWatchThreadOrMeter() {
		String label = "it-churn";
		int count = 100;
		List<String> namespaces = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			namespaces.add("it-churn-" + i);
		}
		this.runner
			.withPropertyValues("informer.resources.churn.api-version=v1", "informer.resources.churn.kind=ConfigMap",
					"informer.resources.churn.namespace-selector=" + label + "=on")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
				SimpleMeterRegistry meters = new SimpleMeterRegistry();
				new InformerMetrics(registry).bindTo(meters);
				long watchesBefore = openConfigMapWatches();
				int threadsBefore = Thread.activeCount();
				int metersBefore = meters.getMeters().size();
				long started = System.nanoTime();
				for (String namespace : namespaces) {
					createNamespace(namespace, label, true);
					admin.configMaps().resource(TestResources.configMap(namespace, "cm", "1")).create();
				}
				await().atMost(Duration.ofSeconds(120))
					.until(() -> registry.informer("churn").getCache().size() == count);
				int metersAtPeak = meters.getMeters().size();
				long watchesAtPeak = openConfigMapWatches();
				for (int round = 0; round < 3; round++) {
					namespaces.forEach((namespace) -> label(namespace, label, false));
					namespaces.forEach((namespace) -> label(namespace, label, true));
				}
				namespaces.forEach(NamespaceSelectorIT::deleteNamespace);
				await().atMost(Duration.ofSeconds(120)).until(() -> registry.informer("churn").getWatches().isEmpty());
				Duration churn = Duration.ofNanos(System.nanoTime() - started);
				await().atMost(Duration.ofSeconds(60))
					.untilAsserted(() -> assertThat(openConfigMapWatches()).as("open ConfigMap watches on the server")
						.isEqualTo(watchesBefore));
				assertThat(registry.informer("churn").getCache().size()).isZero();
				assertThat(meters.getMeters()).as("meters").hasSize(metersBefore);
				// delivery threads end 30 s after their last event
				await().atMost(Duration.ofSeconds(90))
					.pollInterval(Duration.ofSeconds(1))
					.untilAsserted(() -> assertThat(deliveryThreads("churn")).as("delivery threads").isZero());
				await().atMost(Duration.ofSeconds(30))
					.untilAsserted(
							() -> assertThat(Thread.activeCount()).as("threads").isLessThanOrEqualTo(threadsBefore));
				System.out.printf(
						"NSCHURN: namespaces=%d rounds=3 (unlabel+label) then delete, time=%d ms; watches on the "
								+ "server: before=%d peak=%d after=%d; threads: before=%d after=%d; meters: before=%d "
								+ "peak=%d after=%d%n",
						count, churn.toMillis(), watchesBefore, watchesAtPeak, openConfigMapWatches(), threadsBefore,
						Thread.activeCount(), metersBefore, metersAtPeak, meters.getMeters().size());
			});
	}

	@Test
	void aMatchingNamespaceThatIsForbiddenIsReportedAndRetriedWhileTheOthersGoOn() {
		String label = "it-nsf";
		createNamespace("it-nsf-ok", label, true);
		createNamespace("it-nsf-denied", label, false);
		admin.configMaps().resource(TestResources.configMap("it-nsf-ok", "ok", "1")).create();
		admin.configMaps().resource(TestResources.configMap("it-nsf-denied", "denied", "1")).create();
		// dave may follow namespaces, and read ConfigMaps only where a Role grants it
		admin.rbac()
			.clusterRoles()
			.resource(new ClusterRoleBuilder().withNewMetadata()
				.withName("namespace-reader")
				.endMetadata()
				.addNewRule()
				.withApiGroups("")
				.withResources("namespaces")
				.withVerbs("list", "watch")
				.endRule()
				.build())
			.serverSideApply();
		admin.rbac()
			.clusterRoleBindings()
			.resource(new ClusterRoleBindingBuilder().withNewMetadata()
				.withName("dave-namespace-reader")
				.endMetadata()
				.withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "namespace-reader")
				.addNewSubject()
				.withKind("User")
				.withName("dave")
				.withApiGroup("rbac.authorization.k8s.io")
				.endSubject()
				.build())
			.serverSideApply();
		TestResources.grantConfigMapAccess(admin, "dave", "it-nsf-ok");
		Config daveConfig = RealApiServer.get().adminConfig();
		daveConfig.setImpersonateUsername("dave");
		try (KubernetesClient dave = new KubernetesClientBuilder().withConfig(daveConfig).build()) {
			InformerContexts.runner(() -> dave)
				.withBean(RecordingListener.class)
				.withPropertyValues("informer.resources.tenants.api-version=v1",
						"informer.resources.tenants.kind=ConfigMap",
						"informer.resources.tenants.namespace-selector=" + label + "=on",
						"informer.resources.tenants.field-selector=metadata.name!=kube-root-ca.crt")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					RecordingListener listener = context.getBean(RecordingListener.class);
					DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
					label("it-nsf-denied", label, true);
					await().atMost(Duration.ofSeconds(30))
						.until(() -> watch(registry, "it-nsf-denied") != null
								&& watch(registry, "it-nsf-denied").getLastError() != null);
					Watch denied = watch(registry, "it-nsf-denied");
					assertThat(denied.getLastError().httpCode()).isEqualTo(403);
					assertThat(denied.isSynced()).isFalse();
					// the other namespace goes on
					admin.configMaps().resource(TestResources.configMap("it-nsf-ok", "ok-2", "1")).create();
					await().atMost(Duration.ofSeconds(30))
						.until(() -> listener
							.events(ResourceAddedEvent.class, (event) -> "ok-2".equals(event.getName()))
							.size() == 1);
					assertThat(watch(registry, "it-nsf-ok").getState()).isEqualTo(InformerState.WATCHING);
					// retried: access granted later is picked up without a restart
					TestResources.grantConfigMapAccess(admin, "dave", "it-nsf-denied");
					await().atMost(Duration.ofSeconds(90)).until(denied::isSynced);
					assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
						.containsExactlyInAnyOrder("ok", "ok-2", "denied");
				});
		}
		deleteNamespace("it-nsf-ok");
		deleteNamespace("it-nsf-denied");
	}

	/**
	 * The meters of the namespaces' watches, without those of the watch on Namespaces,
	 * which stay as long as the informer.
	 */
	private static List<Meter> watchMeters(SimpleMeterRegistry meters) {
		return meters.getMeters()
			.stream()
			.filter((meter) -> !meter.getId().getName().startsWith("informer.namespace.selection."))
			.toList();
	}

	private static @Nullable Watch watch(DefaultInformerRegistry registry, String namespace) {
		return registry.informer("tenants")
			.getWatches()
			.stream()
			.filter((watch) -> namespace.equals(watch.getNamespace()))
			.findFirst()
			.orElse(null);
	}

	private static Map<String, String> selectedState(String label, Map<String, RandomChanges> changes) {
		Map<String, String> state = new LinkedHashMap<>();
		for (String namespace : selectedNamespaces(label)) {
			state.putAll(RandomChanges.serverState(admin, namespace));
		}
		return state;
	}

	private static List<String> selectedNamespaces(String label) {
		return admin.namespaces()
			.withLabel(label, "on")
			.list()
			.getItems()
			.stream()
			.map((namespace) -> namespace.getMetadata().getName())
			.toList();
	}

	private static void createNamespace(String name, String label, boolean selected) {
		Namespace namespace = new NamespaceBuilder().withNewMetadata()
			.withName(name)
			.addToLabels(label, selected ? "on" : "off")
			.endMetadata()
			.build();
		admin.namespaces().resource(namespace).create();
	}

	private static boolean exists(String name) {
		return admin.namespaces().withName(name).get() != null;
	}

	private static boolean isLabelled(String name, String label) {
		Namespace namespace = admin.namespaces().withName(name).get();
		return namespace != null && "on".equals(namespace.getMetadata().getLabels().get(label));
	}

	private static void label(String name, String label, boolean selected) {
		admin.namespaces().withName(name).edit((namespace) -> {
			namespace.getMetadata().getLabels().put(label, selected ? "on" : "off");
			return namespace;
		});
	}

	/**
	 * Delete a namespace and finalize it at once, as the namespace controller would once
	 * it emptied it (there is none here: its objects stay, in no namespace that matches).
	 */
	private static void deleteNamespace(String name) {
		Namespace namespace = admin.namespaces().withName(name).get();
		if (namespace == null) {
			return;
		}
		admin.namespaces().withName(name).delete();
		Namespace terminating = admin.namespaces().withName(name).get();
		if (terminating != null) {
			terminating.getSpec().setFinalizers(List.of());
			admin.raw(admin.getMasterUrl() + "api/v1/namespaces/" + name + "/finalize", "PUT", terminating);
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> !exists(name));
	}

	private static long deliveryThreads(String informer) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			// the informer's recovery thread, and the
			// listener threads all informers share
			.filter((thread) -> thread.getName().startsWith("informer-" + informer + "-")
					|| thread.getName().startsWith("informer-listener-"))
			.count();
	}

	/**
	 * Read the API server's count of open watches on ConfigMaps, as {@code ScaleIT} does.
	 */
	private static long openConfigMapWatches() {
		long watches = 0;
		for (String line : admin.raw("/metrics").split("\n")) {
			if (line.startsWith("apiserver_longrunning_requests{") && line.contains("verb=\"WATCH\"")
					&& line.contains("resource=\"configmaps\"")) {
				watches += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		return watches;
	}

}
