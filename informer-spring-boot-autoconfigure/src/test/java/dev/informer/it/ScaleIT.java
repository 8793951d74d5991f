package dev.informer.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

import dev.informer.InformerState;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.autoconfigure.health.InformerHealthContributorAutoConfiguration;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.health.InformersHealthContributor;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.WatchMonitor;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The starter at scale on one real kube-apiserver: 10 informers of built-in kinds over
 * the same 50 namespaces, 500 watches. Measures and prints (lines starting with
 * {@code SCALE:}) the time to sync, the threads, the LISTs and open watches the API
 * server counts, and the latency of a health probe; asserts only what must hold at any
 * speed: everything synced and watching, health UP, probes take no sample, no thread left
 * after the context closes.
 */
class ScaleIT {

	private static final int NAMESPACES = 50;

	private static final List<String> NAMESPACE_NAMES = IntStream.range(0, NAMESPACES)
		.mapToObj((i) -> String.format("scale-%02d", i))
		.toList();

	/**
	 * Informer name (the resource's plural, as the API server's metrics name it), then
	 * apiVersion and kind.
	 */
	private static final Map<String, String[]> KINDS = new TreeMap<>(Map.of("configmaps",
			new String[] { "v1", "ConfigMap" }, "secrets", new String[] { "v1", "Secret" }, "serviceaccounts",
			new String[] { "v1", "ServiceAccount" }, "services", new String[] { "v1", "Service" }, "endpoints",
			new String[] { "v1", "Endpoints" }, "persistentvolumeclaims",
			new String[] { "v1", "PersistentVolumeClaim" }, "resourcequotas", new String[] { "v1", "ResourceQuota" },
			"limitranges", new String[] { "v1", "LimitRange" }, "podtemplates", new String[] { "v1", "PodTemplate" },
			"roles", new String[] { "rbac.authorization.k8s.io/v1", "Role" }));

	private static final int HEALTH_CALLS = 50;

	private static RealApiServer server;

	private static KubernetesClient admin;

	@BeforeAll
	static void createObjects() {
		server = RealApiServer.get();
		admin = server.adminClient();
		TestResources.createNamespaces(admin, NAMESPACE_NAMES.toArray(String[]::new));
		for (String namespace : NAMESPACE_NAMES) {
			for (HasMetadata object : objects(namespace)) {
				admin.resource(object).serverSideApply();
			}
		}
	}

	@AfterAll
	static void closeClient() {
		if (admin != null) {
			admin.close();
		}
	}

	// six objects of five kinds per namespace; the other kinds are empty, as many are
	private static List<HasMetadata> objects(String namespace) {
		return List.of(TestResources.configMap(namespace, "app", "1"), TestResources.configMap(namespace, "env", "2"),
				new SecretBuilder().withNewMetadata()
					.withNamespace(namespace)
					.withName("token")
					.endMetadata()
					.withStringData(Map.of("token", "not-a-secret"))
					.build(),
				new ServiceAccountBuilder().withNewMetadata()
					.withNamespace(namespace)
					.withName("app")
					.endMetadata()
					.build(),
				// headless: no cluster IP to allocate
				new ServiceBuilder().withNewMetadata()
					.withNamespace(namespace)
					.withName("app")
					.endMetadata()
					.withNewSpec()
					.withClusterIP("None")
					.addNewPort()
					.withPort(80)
					.endPort()
					.endSpec()
					.build(),
				new RoleBuilder().withNewMetadata()
					.withNamespace(namespace)
					.withName("reader")
					.endMetadata()
					.addNewRule()
					.withApiGroups("")
					.withResources("configmaps")
					.withVerbs("get")
					.endRule()
					.build());
	}

	@Test
	void fiveHundredWatchesSyncAndAreProbedInLinearTime() {
		Map<String, Long> baselineThreads = threadsByPrefix();
		long baselineThreadCount = count(baselineThreads);
		Map<String, Long> metricsBefore = apiServerMetrics();
		long connectionsBefore = connectionsToApiServer();
		KubernetesClient client = new KubernetesClientBuilder().withConfig(server.adminConfig()).build();
		long started = System.nanoTime();
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class,
					InformerHealthContributorAutoConfiguration.class))
			// the context closes the client it is given: its threads must go with it
			.withBean(KubernetesClient.class, () -> client)
			.withBean(SyncTimes.class)
			.withPropertyValues(declarations())
			.withPropertyValues("informer.startup.timeout=120s")
			.run((context) -> {
				Duration startup = Duration.ofNanos(System.nanoTime() - started);
				assertThat(context).hasNotFailed();
				DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
				List<Watch> statuses = registry.informers()
					.stream()
					.flatMap((informer) -> informer.getWatches().stream())
					.toList();
				assertThat(statuses).hasSize(KINDS.size() * NAMESPACES);
				assertThat(registry.informers()).allMatch(ResourceInformer::isSynced);
				CompositeHealthContributor health = context.getBean(InformersHealthContributor.class);
				String probeSamples = assertProbesTakeNoSample(health, statuses, started);
				// the monitor's samples: every watch seen open
				await().atMost(Duration.ofSeconds(30)).until(() -> statuses.stream().allMatch(Watch::isWatching));
				Duration watching = Duration.ofNanos(System.nanoTime() - started);
				assertThat(statuses).extracting(Watch::getState).containsOnly(InformerState.WATCHING);
				List<Duration> latencies = new ArrayList<>();
				for (int i = 0; i < HEALTH_CALLS; i++) {
					long before = System.nanoTime();
					Status status = aggregate(health);
					latencies.add(Duration.ofNanos(System.nanoTime() - before));
					assertThat(status).isEqualTo(Status.UP);
				}
				Map<String, Long> threads = threadsByPrefix();
				Map<String, Long> metrics = apiServerMetrics();
				Duration slowestSync = context.getBean(SyncTimes.class).slowest();
				print("informers=%d namespaces=%d watches=%d cores=%d", KINDS.size(), NAMESPACES, statuses.size(),
						Runtime.getRuntime().availableProcessors());
				print("startup (context start to all synced)=%d ms, slowest informer timeToSync=%d ms, "
						+ "all watches seen open by the monitor=%d ms", startup.toMillis(), slowestSync.toMillis(),
						watching.toMillis());
				print("API server: LIST requests=%d, open watches=%d (of our %d kinds, over the baseline)",
						metrics.get("lists") - metricsBefore.get("lists"),
						metrics.get("watches") - metricsBefore.get("watches"), KINDS.size());
				print("TCP connections to the API server: %d (over the baseline)",
						connectionsToApiServer() - connectionsBefore);
				print("threads: baseline=%d, running=%d (+%d)", baselineThreadCount, count(threads),
						count(threads) - baselineThreadCount);
				print("threads by prefix, running minus baseline: %s", difference(threads, baselineThreads));
				List<Long> millis = latencies.stream().map(Duration::toNanos).sorted().toList();
				print("health of all %d watches, %d calls: median=%.2f ms, max=%.2f ms", statuses.size(), HEALTH_CALLS,
						millis.get(millis.size() / 2) / 1e6, millis.get(millis.size() - 1) / 1e6);
				print("samples taken by a health call: %s", probeSamples);
			});
		// JDK 17's HTTP client ends its selector thread once the client is
		// collected; polled in this thread, so that no poller thread counts
		await().pollInSameThread().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			System.gc();
			assertThat(count(threadsByPrefix()))
				.as("threads after close; by prefix over the baseline: %s",
						difference(threadsByPrefix(), baselineThreads))
				.isLessThanOrEqualTo(baselineThreadCount);
		});
		print("threads after close=%d (baseline %d)", count(threadsByPrefix()), baselineThreadCount);
	}

	/**
	 * Probe health often enough to fill every watch's availability window had a probe
	 * sampled (each namespace indicator sampling all namespaces of its informer), then
	 * check that none is full. Only the monitor fills them, one sample per period, which
	 * takes a whole window from the start of the context: the check is only conclusive
	 * before that.
	 */
	private static String assertProbesTakeNoSample(CompositeHealthContributor health, List<Watch> statuses,
			long startedNanos) {
		int probes = samplesPerWindow() / NAMESPACES + 1;
		for (int i = 0; i < probes; i++) {
			aggregate(health);
		}
		Duration elapsed = Duration.ofNanos(System.nanoTime() - startedNanos);
		if (elapsed.compareTo(RecoveryOptions.DEFAULT.availabilityWindow()) < 0) {
			assertThat(statuses).filteredOn((status) -> status.snapshot().availability().share() >= 0)
				.extracting(Watch::getNamespace)
				.as("watches with a full availability window after %d probes", probes)
				.isEmpty();
			return "0 (" + probes + " probes of " + statuses.size() + " watches filled no availability window of "
					+ samplesPerWindow() + " samples)";
		}
		return "not checked: startup took longer than the availability window";
	}

	private static int samplesPerWindow() {
		return (int) (RecoveryOptions.DEFAULT.availabilityWindow().toMillis() / WatchMonitor.DEFAULT_PERIOD.toMillis());
	}

	// what Spring Boot's health endpoint does with the contributor: ask every indicator
	private static Status aggregate(HealthContributor contributor) {
		if (contributor instanceof HealthIndicator indicator) {
			return indicator.health().getStatus();
		}
		Status worst = Status.UP;
		for (CompositeHealthContributor.Entry entry : ((CompositeHealthContributor) contributor).stream().toList()) {
			Status status = aggregate(entry.contributor());
			if (!status.equals(Status.UP)) {
				worst = status;
			}
		}
		return worst;
	}

	private static String[] declarations() {
		List<String> properties = new ArrayList<>();
		String namespaces = String.join(",", NAMESPACE_NAMES);
		KINDS.forEach((name, kind) -> {
			properties.add("informer.resources." + name + ".api-version=" + kind[0]);
			properties.add("informer.resources." + name + ".kind=" + kind[1]);
			properties.add("informer.resources." + name + ".namespaces=" + namespaces);
		});
		return properties.toArray(String[]::new);
	}

	/**
	 * Read the API server's own counts: LIST requests served and watches open, for the
	 * resources of {@link #KINDS}.
	 */
	private static Map<String, Long> apiServerMetrics() {
		long lists = 0;
		long watches = 0;
		for (String line : admin.raw("/metrics").split("\n")) {
			if (line.startsWith("#") || !KINDS.containsKey(label(line, "resource"))) {
				continue;
			}
			long value = (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
			if (line.startsWith("apiserver_request_total{") && "LIST".equals(label(line, "verb"))) {
				lists += value;
			}
			if (line.startsWith("apiserver_longrunning_requests{") && "WATCH".equals(label(line, "verb"))) {
				watches += value;
			}
		}
		return Map.of("lists", lists, "watches", watches);
	}

	/**
	 * Count the established TCP connections to the API server's port, from the kernel's
	 * socket tables (Linux only; -1 elsewhere).
	 */
	private static long connectionsToApiServer() {
		int port = URI.create(server.getMasterUrl()).getPort();
		long connections = 0;
		for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
			Path path = Path.of(table);
			if (!Files.isReadable(path)) {
				return -1;
			}
			try {
				// columns: slot, local address, remote address (hex ip:port), state (01:
				// established)
				connections += Files.readAllLines(path)
					.stream()
					.skip(1)
					.map((line) -> line.trim().split("\\s+"))
					.filter((columns) -> "01".equals(columns[3])
							&& Integer.parseInt(columns[2].substring(columns[2].indexOf(':') + 1), 16) == port)
					.count();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return connections;
	}

	private static String label(String line, String name) {
		int start = line.indexOf(name + "=\"");
		if (start < 0) {
			return "";
		}
		start += name.length() + 2;
		return line.substring(start, line.indexOf('"', start));
	}

	// live threads by name without their numbers, except the JVM's shared fork-join pool
	private static Map<String, Long> threadsByPrefix() {
		Set<Thread> threads = Thread.getAllStackTraces().keySet();
		return threads.stream()
			.filter(Thread::isAlive)
			.map((thread) -> thread.getName().replaceAll("\\d+", "#"))
			.filter((name) -> !name.startsWith("ForkJoinPool.commonPool"))
			.collect(Collectors.groupingBy((name) -> name, TreeMap::new, Collectors.counting()));
	}

	private static long count(Map<String, Long> threads) {
		return threads.values().stream().mapToLong(Long::longValue).sum();
	}

	private static Map<String, Long> difference(Map<String, Long> threads, Map<String, Long> baseline) {
		Map<String, Long> difference = new TreeMap<>();
		Set<String> names = new TreeSet<>(threads.keySet());
		names.addAll(baseline.keySet());
		for (String name : names) {
			long delta = threads.getOrDefault(name, 0L) - baseline.getOrDefault(name, 0L);
			if (delta != 0) {
				difference.put(name, delta);
			}
		}
		return difference;
	}

	private static void print(String format, Object... args) {
		System.out.println("SCALE: " + String.format(format, args));
	}

	static class SyncTimes {

		private final Collection<Duration> times = new ConcurrentLinkedQueue<>();

		@EventListener
		void on(InformerSyncedEvent event) {
			this.times.add(event.getTimeToSync());
		}

		Duration slowest() {
			return this.times.stream().max(Duration::compareTo).orElse(Duration.ZERO);
		}

	}

}
