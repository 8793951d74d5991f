package dev.informer.benchmarks;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import dev.informer.InformerCustomizer;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceEvent;

/**
 * The main classes the cold-start benchmark launches, one fresh JVM per repetition, each
 * with the benchmark server's kubeconfig ({@code -Dkubeconfig}) and the arguments
 * namespace, expected objects and launch time (epoch seconds). Each prints one
 * {@code COLD-START key=value ...} line when its informer has synced and halts.
 */
final class ColdStartProcesses {

	static final String PREFIX = "COLD-START ";

	/** What every Spring subject sets so that nothing but the sync is printed or done. */
	private static final String[] QUIET = { "spring.main.banner-mode=off", "spring.main.log-startup-info=false",
			"logging.level.root=WARN", "spring.jmx.enabled=false" };

	private ColdStartProcesses() {
	}

	/** The informer every starter subject declares: the namespace's ConfigMaps. */
	private static String[] informer(String namespace) {
		return new String[] { "informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap",
				"informer.resources.configmaps.namespaces=" + namespace };
	}

	/** The prefix of a warm sync's line: another informer in the same process. */
	static final String WARM_PREFIX = "COLD-START-WARM ";

	/**
	 * Print the line of the cold sync the benchmark reads.
	 */
	static void report(String launchedAt, Instant informerStarted, int cached) {
		Instant now = Instant.now();
		double launched = Double.parseDouble(launchedAt);
		double synced = now.getEpochSecond() + now.getNano() / 1e9;
		double started = informerStarted.getEpochSecond() + informerStarted.getNano() / 1e9;
		long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
		System.out.printf(Locale.ROOT,
				PREFIX + "launched=%.6f jvm_started=%.3f informer_started=%.6f synced=%.6f synced_ms=%.1f "
						+ "time_to_sync_ms=%.1f cpu_ms=%.1f threads=%d classes=%d cached=%d%n",
				launched, ManagementFactory.getRuntimeMXBean().getStartTime() / 1e3, started, synced,
				(synced - launched) * 1000, (synced - started) * 1000, cpu / 1e6,
				ManagementFactory.getThreadMXBean().getPeakThreadCount(),
				ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount(), cached);
		System.out.flush();
	}

	/**
	 * Print the line of a warm sync.
	 * @param started {@link System#nanoTime()} at the informer's start
	 * @param cpuAtStart the process's CPU time then
	 * @param cached the objects cached at synced
	 */
	static void reportWarm(long started, long cpuAtStart, int cached) {
		System.out.printf(Locale.ROOT, WARM_PREFIX + "time_to_sync_ms=%.1f cpu_ms=%.1f cached=%d%n",
				(System.nanoTime() - started) / 1e6, (cpuTime() - cpuAtStart) / 1e6, cached);
		System.out.flush();
	}

	static long cpuTime() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
	}

	/**
	 * End the process without running shutdown hooks: what happens after the last sync is
	 * not measured.
	 */
	static void halt() {
		Runtime.getRuntime().halt(0);
	}

	static int warmSyncs(String[] args) {
		return (args.length > 3) ? Integer.parseInt(args[3]) : 0;
	}

	/**
	 * Raw fabric8: a client from the kubeconfig and one {@link SharedIndexInformer} with
	 * a no-op handler; synced when its start future completes.
	 */
	static final class RawFabric8 {

		public static void main(String[] args) throws Exception {
			syncAndReport(args[0], args[2], warmSyncs(args));
		}

		static void syncAndReport(String namespace, String launchedAt, int warmSyncs) throws Exception {
			KubernetesClient client = new KubernetesClientBuilder().build();
			Instant started = Instant.now();
			SharedIndexInformer<ConfigMap> informer = sync(client, namespace);
			report(launchedAt, started, informer.getStore().list().size());
			for (int i = 0; i < warmSyncs; i++) {
				informer.stop();
				long warmStarted = System.nanoTime();
				long cpu = cpuTime();
				informer = sync(client, namespace);
				reportWarm(warmStarted, cpu, informer.getStore().list().size());
			}
			halt();
		}

		private static SharedIndexInformer<ConfigMap> sync(KubernetesClient client, String namespace) throws Exception {
			SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(namespace).runnableInformer(0);
			informer.addEventHandler(new ResourceEventHandler<>() {

				@Override
				public void onAdd(ConfigMap resource) {
				}

				@Override
				public void onUpdate(ConfigMap oldResource, ConfigMap newResource) {
				}

				@Override
				public void onDelete(ConfigMap resource, boolean deletedFinalStateUnknown) {
				}

			});
			informer.start().toCompletableFuture().get(10, TimeUnit.MINUTES);
			return informer;
		}

	}

	/**
	 * Spring Boot without the starter, then raw fabric8: the same application context as
	 * {@link Starter}'s without {@link InformerAutoConfiguration}, and once it is
	 * refreshed, {@link RawFabric8}'s informer. Against {@link Starter}, what the starter
	 * itself adds to a Spring Boot application's cold start.
	 */
	static final class BootThenRawFabric8 {

		public static void main(String[] args) throws Exception {
			new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE).properties(QUIET).run();
			RawFabric8.syncAndReport(args[0], args[2], warmSyncs(args));
		}

		@Configuration(proxyBeanMethods = false)
		static class Application {

			@EventListener
			void on(ApplicationReadyEvent event) {
			}

		}

	}

	/**
	 * The starter with full observability, subject (c) of the warm benchmark
	 * ({@link StarterSubject#full()}): every auto-configuration of the classpath (health,
	 * Micrometer with Prometheus, the endpoint) and ten listeners, four with SpEL
	 * conditions; synced at {@link InformerSyncedEvent}.
	 */
	static final class Full {

		public static void main(String[] args) {
			Probe probe = new Probe(Integer.parseInt(args[1]));
			new SpringApplicationBuilder(StarterSubject.FullApplication.class, SyncedReport.class)
				.web(WebApplicationType.NONE)
				.properties(QUIET)
				.properties(informer(args[0]))
				.properties("management.endpoint.health.show-details=always", "cold-start.launched-at=" + args[2])
				.initializers((ConfigurableApplicationContext context) -> ((GenericApplicationContext) context)
					.registerBean(Probe.class, () -> probe))
				.run();
			halt();
		}

		@Configuration(proxyBeanMethods = false)
		static class SyncedReport {

			private final String launchedAt;

			SyncedReport(org.springframework.core.env.Environment environment) {
				this.launchedAt = environment.getRequiredProperty("cold-start.launched-at");
			}

			@EventListener
			void synced(InformerSyncedEvent event) {
				report(this.launchedAt, Instant.now().minus(event.getTimeToSync()), event.getCacheSize());
			}

		}

	}

	/**
	 * The starter: a Spring Boot application with {@link InformerAutoConfiguration}, one
	 * informer on the namespace and one no-op listener; synced at
	 * {@link InformerSyncedEvent}, whose {@link InformerSyncedEvent#getTimeToSync()} is
	 * the informer's own time to synced. Each warm sync after it runs in a new context of
	 * the same JVM.
	 */
	static final class Starter {

		public static void main(String[] args) {
			ConfigurableApplicationContext context = application(args, false).run();
			// warm: the same informer in a new context of the same JVM, one after another
			for (int i = 0; i < warmSyncs(args); i++) {
				context.close();
				context = application(args, true).run();
			}
			halt();
		}

		private static SpringApplicationBuilder application(String[] args, boolean warm) {
			return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
				.properties(QUIET)
				.properties(informer(args[0]))
				.properties("cold-start.launched-at=" + args[2], "cold-start.warm=" + warm);
		}

		@Configuration(proxyBeanMethods = false)
		@ImportAutoConfiguration(InformerAutoConfiguration.class)
		static class Application {

			private final String launchedAt;

			private final boolean warm;

			private volatile long cpuAtInformerStart;

			Application(org.springframework.core.env.Environment environment) {
				this.launchedAt = environment.getRequiredProperty("cold-start.launched-at");
				this.warm = environment.getRequiredProperty("cold-start.warm", Boolean.class);
			}

			@Bean
			InformerCustomizer cpuAtInformerStart() {
				return (informer) -> this.cpuAtInformerStart = cpuTime();
			}

			@EventListener
			void on(ResourceEvent<ConfigMap> event) {
			}

			@EventListener
			void synced(InformerSyncedEvent event) {
				Duration timeToSync = event.getTimeToSync();
				if (this.warm) {
					reportWarm(System.nanoTime() - timeToSync.toNanos(), this.cpuAtInformerStart, event.getCacheSize());
				}
				else {
					report(this.launchedAt, Instant.now().minus(timeToSync), event.getCacheSize());
				}
			}

		}

	}

}
