package dev.informer.benchmarks;

import java.util.ArrayList;
import java.util.List;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.context.support.GenericApplicationContext;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.InformerLifecycle;

/**
 * The starter in a Spring Boot application that declares one informer on the namespace:
 * (b) only {@link InformerAutoConfiguration} and one listener, with managed fields
 * stripped (the default) or kept; (c) full auto-configuration (health, Micrometer with
 * the Prometheus registry, the informers endpoint) and ten listeners, four of them with
 * SpEL conditions.
 */
final class StarterSubject implements Subject {

	private final String id;

	private final boolean full;

	private final boolean stripManagedFields;

	private final List<String> extraProperties;

	private StarterSubject(String id, boolean full, boolean stripManagedFields, String... extraProperties) {
		this.id = id;
		this.full = full;
		this.stripManagedFields = stripManagedFields;
		this.extraProperties = List.of(extraProperties);
	}

	static StarterSubject minimal() {
		return new StarterSubject("b", false, true);
	}

	static StarterSubject minimalKeepingManagedFields() {
		return new StarterSubject("b-keep", false, false);
	}

	/**
	 * (b-meta) as (b), metadata-only: {@code cache: metadata}.
	 * @return the subject
	 */
	static StarterSubject metadataOnly() {
		return new StarterSubject("b-meta", false, true, "informer.resources.configmaps.cache=metadata");
	}

	/**
	 * (b-wl) as (b), with the initial state from a watch-list
	 * ({@code informer.watch-list=true}).
	 * @return the subject
	 */
	static StarterSubject watchList() {
		return new StarterSubject("b-wl", false, true, "informer.watch-list=true");
	}

	static StarterSubject full() {
		return new StarterSubject("c", true, true);
	}

	@Override
	public String id() {
		return this.id;
	}

	@Override
	public String description() {
		if (!this.extraProperties.isEmpty()) {
			return "starter, one no-op @EventListener, " + String.join(", ", this.extraProperties);
		}
		if (this.full) {
			return "starter + health + Micrometer/Prometheus + endpoint, 10 listeners (4 with SpEL)";
		}
		return "starter, one no-op @EventListener, managed fields " + (this.stripManagedFields ? "stripped" : "kept");
	}

	@Override
	public Running start(ApiServer server, String namespace, Probe probe) {
		KubernetesClient client = server.newClient();
		StartMarker marker = new StartMarker(probe);
		List<String> properties = new ArrayList<>(List.of("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=" + namespace,
				"informer.strip-managed-fields=" + this.stripManagedFields, "spring.main.banner-mode=off",
				"spring.main.log-startup-info=false", "logging.level.root=WARN", "spring.jmx.enabled=false"));
		if (this.full) {
			properties.add("management.endpoint.health.show-details=always");
		}
		properties.addAll(this.extraProperties);
		ConfigurableApplicationContext context = new SpringApplicationBuilder(
				this.full ? FullApplication.class : MinimalApplication.class)
			.web(WebApplicationType.NONE)
			.properties(properties.toArray(String[]::new))
			.initializers((ConfigurableApplicationContext ctx) -> {
				GenericApplicationContext generic = (GenericApplicationContext) ctx;
				generic.registerBean(KubernetesClient.class, () -> client, (bd) -> bd.setDestroyMethodName(""));
				generic.registerBean(Probe.class, () -> probe, (bd) -> bd.setDestroyMethodName(""));
				generic.registerBean(StartMarker.class, () -> marker);
			})
			.run();
		return new Running() {

			@Override
			public long informerStartedAt() {
				return marker.startedAt;
			}

			@Override
			public void close() {
				context.close();
				client.close();
			}

		};
	}

	/**
	 * Notes the time just before the informer lifecycle phase starts.
	 */
	static final class StartMarker implements SmartLifecycle {

		private final Probe probe;

		volatile long startedAt;

		private volatile boolean running;

		StartMarker(Probe probe) {
			this.probe = probe;
		}

		@Override
		public void start() {
			this.probe.informerStarting();
			this.startedAt = System.nanoTime();
			this.running = true;
		}

		@Override
		public void stop() {
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			return InformerLifecycle.PHASE - 1;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(InformerAutoConfiguration.class)
	static class MinimalApplication {

		private final Probe probe;

		MinimalApplication(Probe probe) {
			this.probe = probe;
		}

		@EventListener
		void on(ResourceEvent<ConfigMap> event) {
			if (event instanceof ResourceUpdatedEvent<ConfigMap> updated) {
				this.probe.updated(updated.getResource());
			}
			else if (event instanceof ResourceAddedEvent<ConfigMap> added) {
				this.probe.added(added.getResource());
			}
		}

		@EventListener
		void onMetadata(ResourceEvent<PartialObjectMetadata> event) {
			if (event instanceof ResourceUpdatedEvent<PartialObjectMetadata> updated) {
				this.probe.updated(updated.getResource());
			}
			else if (event instanceof ResourceAddedEvent<PartialObjectMetadata> added) {
				this.probe.added(added.getResource());
			}
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class FullApplication {

		private final Probe probe;

		/** Written by the listeners so that the JIT cannot drop them. */
		volatile Object sink;

		FullApplication(Probe probe) {
			this.probe = probe;
		}

		@EventListener
		void on(ResourceEvent<ConfigMap> event) {
			if (event instanceof ResourceUpdatedEvent<ConfigMap> updated) {
				this.probe.updated(updated.getResource());
			}
			else if (event instanceof ResourceAddedEvent<ConfigMap> added) {
				this.probe.added(added.getResource());
			}
		}

		@EventListener
		void added(ResourceAddedEvent<ConfigMap> event) {
			this.sink = event;
		}

		@EventListener
		void updated(ResourceUpdatedEvent<ConfigMap> event) {
			this.sink = event;
		}

		@EventListener
		void deleted(ResourceDeletedEvent<ConfigMap> event) {
			this.sink = event;
		}

		@EventListener
		void any(ResourceEvent<?> event) {
			this.sink = event;
		}

		@EventListener
		void synced(InformerSyncedEvent event) {
			this.sink = event;
		}

		@EventListener(condition = "#event.informerName == 'configmaps'")
		void byInformer(ResourceEvent<ConfigMap> event) {
			this.sink = event;
		}

		@EventListener(condition = "#event.namespace == 'nowhere'")
		void otherNamespace(ResourceUpdatedEvent<ConfigMap> event) {
			this.sink = event;
		}

		@EventListener(condition = "!#event.resync")
		void notResync(ResourceUpdatedEvent<ConfigMap> event) {
			this.sink = event;
		}

		@EventListener(condition = "#event.resource.metadata.labels['app'] == 'bench'")
		void labelled(ResourceEvent<ConfigMap> event) {
			this.sink = event;
		}

	}

}
