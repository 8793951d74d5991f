package dev.informer.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.context.support.GenericApplicationContext;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.test.ControlPlane;

/**
 * The Pod workload: Pods that Deployments create on kwok nodes of the test starter's
 * {@link ControlPlane} (the controllers and the scheduler write them, kwok runs them, as
 * in a cluster), watched by raw fabric8 and by the starter with managed fields kept,
 * stripped (the default) and {@code cache: metadata}. For each: the heap per Pod once
 * synced (after GC), and a stream of status updates (a condition whose time changes, as a
 * kubelet's probes write) in random order from a seed: events per second and the process
 * CPU per event, without the writer's threads.
 * <p>
 * {@code --pods-only [--pods N] [--nodes N] [--updates N] [--seed N]}.
 */
final class PodBenchmark {

	private static final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

	private static final String NAMESPACE = "bench-pods";

	private static final int REPLICAS_PER_DEPLOYMENT = 100;

	private PodBenchmark() {
	}

	static String run(int pods, int nodes, int updates, long seed) throws Exception {
		StringBuilder table = new StringBuilder();
		try (ControlPlane controlPlane = ControlPlane.start(nodes);
				KubernetesClient admin = controlPlane.adminClient()) {
			long started = System.nanoTime();
			populate(admin, pods);
			Harness.log("pods: %d Pods of %d Deployments Running on %d kwok nodes in %.1f s", pods,
					pods / REPLICAS_PER_DEPLOYMENT, nodes, (System.nanoTime() - started) / 1e9);
			table.append(String.format(
					"Pods: %d on %d kwok nodes; %d status updates; seed %d; control plane %d MiB " + "resident%n%n",
					pods, nodes, updates, seed, controlPlane.residentBytes() >> 20));
			table.append("| subject | heap per Pod (KiB) | sync (ms) | events/s | CPU per event (µs) |\n");
			table.append("|---|---:|---:|---:|---:|\n");
			List<String> names = admin.pods()
				.inNamespace(NAMESPACE)
				.list()
				.getItems()
				.stream()
				.map((pod) -> pod.getMetadata().getName())
				.toList();
			for (String subject : List.of("raw", "kept", "stripped", "metadata")) {
				// the same updates, in the same order, for each subject
				table.append(measure(controlPlane, subject, names, updates, seed)).append('\n');
			}
		}
		return table.toString();
	}

	private static void populate(KubernetesClient admin, int pods) throws Exception {
		admin.namespaces()
			.resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
			.create();
		for (int i = 0; i < pods / REPLICAS_PER_DEPLOYMENT; i++) {
			String name = "workload-" + i;
			admin.apps()
				.deployments()
				.resource(new DeploymentBuilder().withNewMetadata()
					.withNamespace(NAMESPACE)
					.withName(name)
					.endMetadata()
					.withNewSpec()
					.withReplicas(REPLICAS_PER_DEPLOYMENT)
					.withNewSelector()
					.addToMatchLabels("app", name)
					.endSelector()
					.withNewTemplate()
					.withNewMetadata()
					.addToLabels("app", name)
					.addToLabels("tier", "backend")
					.endMetadata()
					.withNewSpec()
					.addNewContainer()
					.withName("app")
					.withImage("registry.example.com/app:1.0.0")
					.addToArgs("--port=8080", "--log-level=info")
					.addNewEnv()
					.withName("MODE")
					.withValue("production")
					.endEnv()
					.addNewPort()
					.withContainerPort(8080)
					.endPort()
					.withNewResources()
					.addToRequests("cpu", new Quantity("10m"))
					.addToRequests("memory", new Quantity("16Mi"))
					.endResources()
					.endContainer()
					.endSpec()
					.endTemplate()
					.endSpec()
					.build())
				.create();
		}
		await(() -> admin.pods()
			.inNamespace(NAMESPACE)
			.list()
			.getItems()
			.stream()
			.filter((pod) -> pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase()))
			.count() == pods, Duration.ofMinutes(15), Duration.ofSeconds(2), pods + " Pods Running");
	}

	private static String measure(ControlPlane controlPlane, String subject, List<String> names, int updates, long seed)
			throws Exception {
		Probe probe = new Probe(names.size());
		long before = usedHeapAfterGc();
		KubernetesClient client = controlPlane.adminClient();
		client.getKubernetesVersion();
		probe.informerStarting();
		long started = System.nanoTime();
		AutoCloseable running = subject.equals("raw") ? raw(client, probe) : starter(client, probe, subject);
		try {
			await(() -> probe.syncedAt() != 0, Duration.ofMinutes(5), subject + " sync");
			double syncMillis = (probe.syncedAt() - started) / 1e6;
			double heapPerPod = (usedHeapAfterGc() - before) / 1024.0 / names.size();
			long cpuBefore = Probe.processCpuTime();
			long firstUpdate = writeStatus(controlPlane, updates, seed, () -> probe.updates() > 0);
			await(() -> probe.updates() >= updates, Duration.ofMinutes(5), subject + " updates");
			// from the first update delivered to the last,
			// so the writer's JVM start is not counted
			double seconds = (probe.lastUpdateAt() - firstUpdate) / 1e9;
			double cpuPerEvent = (Probe.processCpuTime() - cpuBefore) / 1e3 / updates;
			Harness.log("pods: %s synced %d Pods in %.0f ms", subject, names.size(), syncMillis);
			return String.format("| %s | %.2f | %.0f | %.0f | %.1f |", describe(subject), heapPerPod, syncMillis,
					updates / seconds, cpuPerEvent);
		}
		finally {
			running.close();
			client.close();
		}
	}

	private static String describe(String subject) {
		return switch (subject) {
			case "raw" -> "raw fabric8 SharedIndexInformer";
			case "kept" -> "starter, managed fields kept";
			case "stripped" -> "starter, managed fields stripped (default)";
			default -> "starter, `cache: metadata`";
		};
	}

	private static AutoCloseable raw(KubernetesClient client, Probe probe) {
		SharedIndexInformer<Pod> informer = client.pods().inNamespace(NAMESPACE).runnableInformer(0);
		informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(Pod pod) {
				probe.added(pod);
			}

			@Override
			public void onUpdate(Pod oldPod, Pod newPod) {
				probe.updated(newPod);
			}

			@Override
			public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
			}

		});
		informer.start();
		return informer::stop;
	}

	private static AutoCloseable starter(KubernetesClient client, Probe probe, String subject) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(PodApplication.class)
			.web(WebApplicationType.NONE)
			.properties("informer.resources.pods.api-version=v1", "informer.resources.pods.kind=Pod",
					"informer.resources.pods.namespaces=" + NAMESPACE,
					"informer.resources.pods.cache=" + (subject.equals("metadata") ? "metadata" : "full"),
					"informer.strip-managed-fields=" + !subject.equals("kept"), "spring.main.banner-mode=off",
					"spring.main.log-startup-info=false", "logging.level.root=WARN", "spring.jmx.enabled=false")
			.initializers((ConfigurableApplicationContext ctx) -> {
				GenericApplicationContext generic = (GenericApplicationContext) ctx;
				generic.registerBean(KubernetesClient.class, () -> client, (bd) -> bd.setDestroyMethodName(""));
				generic.registerBean(Probe.class, () -> probe, (bd) -> bd.setDestroyMethodName(""));
			})
			.run();
		return context::close;
	}

	/**
	 * Patch the status of random Pods {@code count} times from a JVM of its own, so that
	 * its CPU is not counted here; return when the first update was delivered.
	 */
	private static long writeStatus(ControlPlane controlPlane, int count, long seed, BooleanSupplier delivering)
			throws Exception {
		Path kubeconfig = Files.createTempFile("bench-kubeconfig", ".yaml");
		try {
			Files.writeString(kubeconfig, controlPlane.kubeconfigYaml());
			Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
					"-Dkubeconfig=" + kubeconfig, "-cp", System.getProperty("java.class.path"),
					StatusWriter.class.getName(), NAMESPACE, Integer.toString(count), Long.toString(seed))
				.inheritIO()
				.start();
			await(() -> delivering.getAsBoolean() || !writer.isAlive(), Duration.ofMinutes(2), "the first update");
			long first = System.nanoTime();
			if (writer.waitFor() != 0) {
				throw new IllegalStateException("The writer failed: exit code " + writer.exitValue());
			}
			return first;
		}
		finally {
			Files.deleteIfExists(kubeconfig);
		}
	}

	/**
	 * Sets a condition with a new time on random Pods of a namespace (a strategic merge
	 * patch of the status each, as a kubelet reporting probes), from 8 threads.
	 */
	static final class StatusWriter {

		public static void main(String[] args) throws Exception {
			String namespace = args[0];
			int count = Integer.parseInt(args[1]);
			Random random = new Random(Long.parseLong(args[2]));
			try (KubernetesClient client = new KubernetesClientBuilder().build()) {
				List<String> names = client.pods()
					.inNamespace(namespace)
					.list()
					.getItems()
					.stream()
					.map((pod) -> pod.getMetadata().getName())
					.sorted()
					.toList();
				List<String> order = new ArrayList<>();
				for (int i = 0; i < count; i++) {
					order.add(names.get(random.nextInt(names.size())));
				}
				ExecutorService writers = Executors.newFixedThreadPool(8);
				try {
					List<Future<?>> done = new ArrayList<>();
					for (int w = 0; w < 8; w++) {
						int first = w;
						done.add(writers.submit(() -> {
							for (int i = first; i < order.size(); i += 8) {
								client.pods()
									.inNamespace(namespace)
									.withName(order.get(i))
									.subresource("status")
									.patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
											"{\"status\":{\"conditions\":[{\"type\":\"informer.dev/Probed\","
													+ "\"status\":\"True\",\"lastProbeTime\":\"" + Instant.now()
													+ "\",\"reason\":\"Update" + i + "\"}]}}");
							}
						}));
					}
					for (Future<?> writer : done) {
						writer.get();
					}
				}
				finally {
					writers.shutdownNow();
				}
			}
		}

	}

	private static long usedHeapAfterGc() {
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 5; i++) {
			System.gc();
			LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
			used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
		}
		return used;
	}

	private static void await(BooleanSupplier condition, Duration timeout, String what) throws TimeoutException {
		await(condition, timeout, Duration.ofMillis(5), what);
	}

	private static void await(BooleanSupplier condition, Duration timeout, Duration poll, String what)
			throws TimeoutException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new TimeoutException(what + " did not finish within " + timeout);
			}
			LockSupport.parkNanos(poll.toNanos());
		}
	}

	/**
	 * The starter with only its auto-configuration and one listener that counts.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(InformerAutoConfiguration.class)
	static class PodApplication {

		private final Probe probe;

		PodApplication(Probe probe) {
			this.probe = probe;
		}

		@EventListener
		void on(ResourceEvent<Pod> event) {
			count(event);
		}

		@EventListener
		void onMetadata(ResourceEvent<PartialObjectMetadata> event) {
			count(event);
		}

		private void count(ResourceEvent<?> event) {
			if (event instanceof ResourceUpdatedEvent<?> updated) {
				this.probe.updated(updated.getResource());
			}
			else if (event instanceof ResourceAddedEvent<?> added) {
				this.probe.added(added.getResource());
			}
		}

	}

}
