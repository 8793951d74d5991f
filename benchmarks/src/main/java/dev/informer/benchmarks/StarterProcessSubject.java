package dev.informer.benchmarks;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.context.support.GenericApplicationContext;

import dev.informer.InformerRegistry;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.InformerLifecycle;

/**
 * Subject (b) of the per-process benchmark in a JVM of its own: a Spring Boot application
 * with every auto-configuration of the benchmark's class path (the starter's
 * {@code InformerAutoConfiguration} and its health, metrics, endpoint and observation
 * auto-configurations, Spring Boot Actuator, Micrometer with the Prometheus registry), no
 * web server, one informer declared in properties on the namespace's ConfigMaps and one
 * {@code @EventListener} that only counts. The starter builds its own client from the
 * kubeconfig ({@code -Dkubeconfig}). The context is refreshed up to the phase before the
 * starter's informer lifecycle, where it waits for {@code sync}; a warm sync closes the
 * context and refreshes a new one in the same JVM. Arguments: {@code NAMESPACE EXPECTED}.
 */
final class StarterProcessSubject implements SubjectProtocol.Driver {

	/** What keeps the application quiet: nothing but the protocol on standard output. */
	private static final String[] QUIET = { "spring.main.banner-mode=off", "spring.main.log-startup-info=false",
			"logging.level.root=WARN", "spring.jmx.enabled=false" };

	private final String namespace;

	private final SubjectProtocol.Tally tally;

	private final AtomicReference<@Nullable ConfigurableApplicationContext> context = new AtomicReference<>();

	private @Nullable Gate gate;

	private @Nullable Thread refresh;

	private StarterProcessSubject(String namespace, SubjectProtocol.Tally tally) {
		this.namespace = namespace;
		this.tally = tally;
	}

	public static void main(String[] args) {
		SubjectProtocol.Tally tally = new SubjectProtocol.Tally(Integer.parseInt(args[1]));
		SubjectProtocol.serve(new StarterProcessSubject(args[0], tally), tally);
	}

	@Override
	public void prepare() throws Exception {
		if (this.refresh != null) {
			this.refresh.join();
			this.context.get().close();
		}
		this.tally.resetAdds();
		Gate gate = new Gate();
		this.gate = gate;
		SpringApplicationBuilder application = new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.NONE)
			.properties(QUIET)
			.properties("informer.resources.configmaps.api-version=v1", "informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + this.namespace)
			.initializers((ConfigurableApplicationContext context) -> {
				GenericApplicationContext generic = (GenericApplicationContext) context;
				generic.registerBean(SubjectProtocol.Tally.class, () -> this.tally,
						(definition) -> definition.setDestroyMethodName(""));
				generic.registerBean(Gate.class, () -> gate);
			});
		this.refresh = new Thread(() -> this.context.set(application.run()), "context-refresh");
		this.refresh.start();
		gate.awaitReached();
	}

	@Override
	public void sync() throws Exception {
		this.gate.open();
		this.tally.awaitAdds();
	}

	@Override
	public Map<String, Object> synced() {
		try {
			this.refresh.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return Map.of("items",
				this.context.get().getBean(InformerRegistry.class).cache("configmaps", ConfigMap.class).size());
	}

	/**
	 * Holds the context's refresh just before the starter's informer lifecycle phase
	 * until the harness says {@code sync}.
	 */
	static final class Gate implements SmartLifecycle {

		private final CountDownLatch reached = new CountDownLatch(1);

		private final CountDownLatch open = new CountDownLatch(1);

		private volatile boolean running;

		void awaitReached() throws InterruptedException {
			if (!this.reached.await(10, TimeUnit.MINUTES)) {
				throw new IllegalStateException("the context did not reach the informer phase");
			}
		}

		void open() {
			this.open.countDown();
		}

		@Override
		public void start() {
			this.reached.countDown();
			try {
				this.open.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
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

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

		private final SubjectProtocol.Tally tally;

		Application(SubjectProtocol.Tally tally) {
			this.tally = tally;
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

	}

}
