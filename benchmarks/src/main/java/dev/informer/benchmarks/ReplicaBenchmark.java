package dev.informer.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.context.support.GenericApplicationContext;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.replicas.DeliveryCoordinator;

/**
 * The cost of one replica when N replicas share a collection, in {@code sharded} mode
 * with the API server's shard selectors against {@code all}: the objects each replica
 * caches, the heap it holds and the client CPU it spends per change of the collection.
 * Replicas run as application contexts in this JVM, so heap and CPU are measured for all
 * of them and divided by N; the writer runs in a JVM of its own.
 */
final class ReplicaBenchmark {

	private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private static final String NAMESPACE = "bench-replicas";

	private final ApiServer server;

	private final int objects;

	private final int updates;

	private final List<Integer> replicaCounts;

	private ReplicaBenchmark(ApiServer server, int objects, int updates, List<Integer> replicaCounts) {
		this.server = server;
		this.objects = objects;
		this.updates = updates;
		this.replicaCounts = replicaCounts;
	}

	/**
	 * Run on a server of its own with shard selectors on, and write {@code replicas.md}.
	 * @param options the run's options
	 * @return the markdown table
	 * @throws Exception on failure
	 */
	static String run(Options options) throws Exception {
		try (ApiServer server = ApiServer.start(options.mock(), "--feature-gates=ShardedListAndWatch=true")) {
			int objects = options.smoke() ? 200 : 10_000;
			int updates = options.smoke() ? 100 : 5_000;
			String table = new ReplicaBenchmark(server, objects, updates, List.of(1, 2, 4)).measure();
			Files.createDirectories(options.output());
			Files.writeString(options.output().resolve("replicas.md"), table);
			return table;
		}
	}

	private String measure() throws Exception {
		try (KubernetesClient writer = this.server.newClient()) {
			populate(writer);
			// a discarded round, so that the JIT has compiled the paths measured
			measure("all", 1);
			List<Row> rows = new ArrayList<>();
			for (String mode : List.of("all", "sharded")) {
				for (int replicas : this.replicaCounts) {
					rows.add(measure(mode, replicas));
				}
			}
			return table(rows);
		}
	}

	private void populate(KubernetesClient writer) throws Exception {
		Workload workload = new Workload(this.server, 4);
		try {
			workload.populate(this.objects);
		}
		finally {
			workload.close();
		}
	}

	/**
	 * Make the updates from another JVM, so that its CPU is not counted here.
	 */
	private void update() throws Exception {
		String kubeConfig = this.server.kubeConfigYaml();
		if (kubeConfig == null) {
			throw new IllegalStateException("The replica benchmark needs the real API server");
		}
		Path file = Files.createTempFile("bench-kubeconfig", ".yaml");
		try {
			Files.writeString(file, kubeConfig);
			Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
					"-Dkubeconfig=" + file, "-cp", System.getProperty("java.class.path"), Writer.class.getName(),
					Workload.namespace(this.objects), Integer.toString(this.objects), Integer.toString(this.updates))
				.inheritIO()
				.start();
			if (writer.waitFor() != 0) {
				throw new IllegalStateException("The writer failed: exit code " + writer.exitValue());
			}
		}
		finally {
			Files.deleteIfExists(file);
		}
	}

	/**
	 * Updates random ConfigMaps of a namespace with one merge patch each.
	 */
	static final class Writer {

		public static void main(String[] args) {
			String namespace = args[0];
			int objects = Integer.parseInt(args[1]);
			int updates = Integer.parseInt(args[2]);
			try (KubernetesClient client = new KubernetesClientBuilder().build()) {
				for (int i = 0; i < updates; i++) {
					String name = Workload.name(ThreadLocalRandom.current().nextInt(objects));
					client.configMaps()
						.inNamespace(namespace)
						.withName(name)
						.patch(PatchContext.of(PatchType.JSON_MERGE),
								"{\"data\":{\"rev\":\"" + ThreadLocalRandom.current().nextInt() + "\"}}");
				}
			}
		}

	}

	private Row measure(String mode, int replicas) throws Exception {
		String group = "bench-" + mode + "-" + replicas;
		long heapBefore = usedHeapAfterGc();
		List<ConfigurableApplicationContext> contexts = new ArrayList<>();
		List<KubernetesClient> clients = new ArrayList<>();
		AtomicLong updated = new AtomicLong();
		try {
			for (int i = 0; i < replicas; i++) {
				KubernetesClient client = this.server.newClient();
				clients.add(client);
				contexts.add(start(client, mode, group, "r" + i, updated));
			}
			// synced, members agreed, every cache holding only what its replica owns (no
			// relist to a new range still running), and every object in one cache
			long total = mode.equals("sharded") ? this.objects : (long) this.objects * replicas;
			BooleanSupplier settled = () -> contexts.stream()
				.allMatch((context) -> context.getBean(DefaultInformerRegistry.class).informer("configmaps").isSynced()
						&& members(context) == (mode.equals("sharded") ? replicas : 0)
						&& (mode.equals("all") || context.getBean(DeliveryCoordinator.class)
							.ownedObjects() == cached(List.of(context))))
					&& cached(contexts) == total;
			await(settled, Duration.ofMinutes(5));
			long cached = cached(contexts);
			long heap = usedHeapAfterGc() - heapBefore;
			if (!settled.getAsBoolean()) {
				// a membership change while the heap was measured (a renewal late on a
				// busy machine): the row would mix two states
				throw new IllegalStateException("Replicas changed while measured: " + group);
			}
			Map<Long, Long> cpu = javaThreadsCpu();
			update();
			// every update published once in sharded mode, by every replica in all mode
			long expected = mode.equals("sharded") ? this.updates : (long) this.updates * replicas;
			await(() -> updated.get() >= expected, Duration.ofMinutes(5));
			double clientCpu = cpuSince(cpu) / 1e6;
			return new Row(mode, replicas, cached / (double) replicas, heap / (double) replicas / (1 << 20),
					clientCpu / replicas, clientCpu * 1000 / replicas / this.updates);
		}
		finally {
			contexts.forEach(ConfigurableApplicationContext::close);
			clients.forEach(KubernetesClient::close);
		}
	}

	private static long cached(List<ConfigurableApplicationContext> contexts) {
		long cached = 0;
		for (ConfigurableApplicationContext context : contexts) {
			cached += context.getBean(DefaultInformerRegistry.class).informer("configmaps").getCache().list().size();
		}
		return cached;
	}

	private static int members(ConfigurableApplicationContext context) {
		var sharding = context.getBean(DeliveryCoordinator.class).snapshot().sharding();
		return (sharding != null) ? sharding.members().size() : 0;
	}

	private ConfigurableApplicationContext start(KubernetesClient client, String mode, String group, String identity,
			AtomicLong updated) {
		Counter counter = new Counter(updated);
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.properties("informer.resources.configmaps.api-version=v1", "informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + Workload.namespace(this.objects),
					"informer.replicas.mode=" + mode, "informer.replicas.group=" + group,
					"informer.replicas.identity=" + identity, "informer.replicas.lease-namespace=default",
					"informer.replicas.retry-period=500ms", "informer.replicas.renew-deadline=3s",
					"informer.replicas.lease-duration=4s", "spring.main.banner-mode=off",
					"spring.main.log-startup-info=false", "logging.level.root=WARN", "spring.jmx.enabled=false")
			.initializers((ConfigurableApplicationContext ctx) -> {
				GenericApplicationContext generic = (GenericApplicationContext) ctx;
				generic.registerBean(KubernetesClient.class, () -> client, (bd) -> bd.setDestroyMethodName(""));
				generic.registerBean(Counter.class, () -> counter);
			})
			.run();
	}

	/**
	 * Return the CPU time of every live Java thread: the informers', the HTTP clients'
	 * and the listeners', not the JVM's own GC and compiler threads, whose work in a
	 * shared JVM does not split by replica.
	 */
	private static Map<Long, Long> javaThreadsCpu() {
		Map<Long, Long> cpu = new HashMap<>();
		for (long id : threads.getAllThreadIds()) {
			long time = threads.getThreadCpuTime(id);
			if (time >= 0) {
				cpu.put(id, time);
			}
		}
		return cpu;
	}

	private static long cpuSince(Map<Long, Long> before) {
		long spent = 0;
		for (Map.Entry<Long, Long> now : javaThreadsCpu().entrySet()) {
			spent += now.getValue() - before.getOrDefault(now.getKey(), 0L);
		}
		return spent;
	}

	private static void await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("Not reached within " + timeout);
			}
			Thread.sleep(20);
		}
	}

	/**
	 * Collect until the used heap stops falling: replicas closed just before may still be
	 * reachable for a moment from threads that are ending.
	 */
	private static long usedHeapAfterGc() throws InterruptedException {
		long previous = Long.MAX_VALUE;
		for (int round = 0; round < 20; round++) {
			System.gc();
			long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
			if (previous - used < (1 << 20)) {
				return used;
			}
			previous = used;
			Thread.sleep(250);
		}
		return previous;
	}

	private String table(List<Row> rows) {
		StringBuilder table = new StringBuilder();
		table.append(String.format(Locale.ROOT,
				"%d ConfigMaps of ~1 KiB; %d updates by a writer in another JVM; replicas as contexts of one JVM, "
						+ "its heap and its Java threads' CPU (not GC or JIT) divided by their number%n%n",
				this.objects, this.updates));
		table.append("| mode | replicas | objects cached per replica | heap per replica (MiB) | "
				+ "client CPU per replica (ms) | CPU per replica per change (µs) | per-replica CPU vs all |\n");
		table.append("|---|---:|---:|---:|---:|---:|---:|\n");
		for (Row row : rows) {
			Row all = rows.stream()
				.filter((r) -> r.mode().equals("all") && r.replicas() == row.replicas())
				.findFirst()
				.orElse(row);
			table.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.1f | %.0f | %.1f | %.2f |%n", row.mode(),
					row.replicas(), row.cachedPerReplica(), row.heapPerReplicaMib(), row.cpuPerReplicaMs(),
					row.cpuPerChangeMicros(), row.cpuPerReplicaMs() / all.cpuPerReplicaMs()));
		}
		return table.toString();
	}

	record Row(String mode, int replicas, double cachedPerReplica, double heapPerReplicaMib, double cpuPerReplicaMs,
			double cpuPerChangeMicros) {

	}

	/**
	 * Counts the update events a replica publishes.
	 */
	static final class Counter {

		private final AtomicLong updated;

		Counter(AtomicLong updated) {
			this.updated = updated;
		}

		@EventListener
		void on(ResourceEvent<ConfigMap> event) {
			if (event instanceof ResourceUpdatedEvent<ConfigMap> update && !update.isResync()) {
				this.updated.incrementAndGet();
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(InformerAutoConfiguration.class)
	static class Application {

	}

}
