package dev.informer.benchmarks;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import dev.informer.InformerCustomizer;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;

/**
 * The starter as the start benchmark launches it ({@link StartBenchmark}): a Spring Boot
 * application with {@link InformerAutoConfiguration}, no web server, one informer on a
 * namespace's ConfigMaps and one {@code @EventListener} that counts, started at once as a
 * pod starts it. At {@link InformerSyncedEvent} it says {@code STARTED} with the times
 * (epoch milliseconds) of its {@code main}, its informer's start and synced, and its CPU
 * time at both, then serves the stream's commands. The build processes this application
 * with Spring's AOT engine ({@code process-aot} in the benchmarks' pom), so a launch with
 * {@code -Dspring.aot.enabled=true} runs its generated code. Arguments:
 * {@code --informer.resources.configmaps.namespaces=NAMESPACE}; environment:
 * {@code BENCH_EXPECTED} (objects), {@code BENCH_CLK_TCK} (clock ticks per second).
 */
public final class StartSubject {

	private static final double MAIN_EPOCH_MS = System.currentTimeMillis();

	private StartSubject() {
	}

	public static void main(String[] args) {
		new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.properties("spring.main.banner-mode=off", "spring.main.log-startup-info=false", "logging.level.root=WARN",
					"spring.jmx.enabled=false", "informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap")
			.run(args);
	}

	private static long ticksPerSecond() {
		String ticks = System.getenv("BENCH_CLK_TCK");
		return (ticks != null) ? Long.parseLong(ticks) : 100;
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(InformerAutoConfiguration.class)
	static class Application {

		private final SubjectProtocol.Tally tally = new SubjectProtocol.Tally(
				Integer.parseInt(System.getenv().getOrDefault("BENCH_EXPECTED", "0")));

		private final long ticks = ticksPerSecond();

		private volatile double cpuAtInformerStart = Double.NaN;

		@Bean
		InformerCustomizer cpuAtInformerStart() {
			return (informer) -> this.cpuAtInformerStart = SubjectProtocol.selfCpuMillis(this.ticks);
		}

		@EventListener
		void on(ResourceEvent<ConfigMap> event) {
			if (event instanceof ResourceUpdatedEvent<ConfigMap> updated) {
				ConfigMap configMap = updated.getResource();
				this.tally.updated((configMap.getData() != null) ? configMap.getData().get(Probe.SEQ) : null);
			}
			else if (event instanceof ResourceAddedEvent) {
				this.tally.added();
			}
		}

		@EventListener
		void synced(InformerSyncedEvent event) {
			double cpu = SubjectProtocol.selfCpuMillis(this.ticks);
			Instant now = Instant.now();
			double synced = now.toEpochMilli() + (now.getNano() % 1_000_000) / 1e6;
			Map<String, Object> pairs = new LinkedHashMap<>();
			pairs.put("main_epoch_ms", String.format(Locale.ROOT, "%.3f", MAIN_EPOCH_MS));
			pairs.put("informer_epoch_ms",
					String.format(Locale.ROOT, "%.3f", synced - event.getTimeToSync().toNanos() / 1e6));
			pairs.put("synced_epoch_ms", String.format(Locale.ROOT, "%.3f", synced));
			pairs.put("informer_cpu_ms", String.format(Locale.ROOT, "%.1f", this.cpuAtInformerStart));
			pairs.put("synced_cpu_ms", String.format(Locale.ROOT, "%.1f", cpu));
			pairs.put("items", event.getCacheSize());
			// serve the stream on a thread of its own: the listener returns, the context
			// finishes its start. Not a daemon, as the delivery thread this runs on is:
			// it
			// keeps the JVM alive after main returns, until the harness says exit
			Thread serve = new Thread(() -> SubjectProtocol.serveStarted(pairs, this.tally), "bench-protocol");
			serve.setDaemon(false);
			serve.start();
		}

	}

}
