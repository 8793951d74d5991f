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
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

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

	private ColdStartProcesses() {
	}

	/**
	 * Print the line the benchmark reads, and end the process without running shutdown
	 * hooks: what happens after the sync is not measured.
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
		Runtime.getRuntime().halt(0);
	}

	/**
	 * Raw fabric8: a client from the kubeconfig and one {@link SharedIndexInformer} with
	 * a no-op handler; synced when its start future completes.
	 */
	static final class RawFabric8 {

		public static void main(String[] args) throws Exception {
			syncAndReport(args[0], args[2]);
		}

		static void syncAndReport(String namespace, String launchedAt) throws Exception {
			KubernetesClient client = new KubernetesClientBuilder().build();
			Instant started = Instant.now();
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
			report(launchedAt, started, informer.getStore().list().size());
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
			new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
				.properties("spring.main.banner-mode=off", "spring.main.log-startup-info=false",
						"logging.level.root=WARN", "spring.jmx.enabled=false")
				.run();
			RawFabric8.syncAndReport(args[0], args[2]);
		}

		@Configuration(proxyBeanMethods = false)
		static class Application {

			@EventListener
			void on(ApplicationReadyEvent event) {
			}

		}

	}

	/**
	 * The starter: a Spring Boot application with {@link InformerAutoConfiguration}, one
	 * informer on the namespace and one no-op listener; synced at
	 * {@link InformerSyncedEvent}, whose {@link InformerSyncedEvent#getTimeToSync()} is
	 * the informer's own time to synced.
	 */
	static final class Starter {

		public static void main(String[] args) {
			new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
				.properties("informer.resources.configmaps.api-version=v1",
						"informer.resources.configmaps.kind=ConfigMap",
						"informer.resources.configmaps.namespaces=" + args[0], "spring.main.banner-mode=off",
						"spring.main.log-startup-info=false", "logging.level.root=WARN", "spring.jmx.enabled=false",
						"cold-start.launched-at=" + args[2])
				.run();
		}

		@Configuration(proxyBeanMethods = false)
		@ImportAutoConfiguration(InformerAutoConfiguration.class)
		static class Application {

			private final String launchedAt;

			Application(org.springframework.core.env.Environment environment) {
				this.launchedAt = environment.getRequiredProperty("cold-start.launched-at");
			}

			@EventListener
			void on(ResourceEvent<ConfigMap> event) {
			}

			@EventListener
			void synced(InformerSyncedEvent event) {
				Duration timeToSync = event.getTimeToSync();
				report(this.launchedAt, Instant.now().minus(timeToSync), event.getCacheSize());
			}

		}

	}

}
