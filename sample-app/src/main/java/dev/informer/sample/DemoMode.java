package dev.informer.sample;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Demo mode: when no cluster answers (a fresh machine), start fabric8's mock API server in
 * CRUD mode, hand the application a client for it, seed objects and keep changing them so
 * every event type shows within seconds.
 */
final class DemoMode {

	private static final Log logger = LogFactory.getLog(DemoMode.class);

	private DemoMode() {
	}

	@SuppressWarnings("deprecation") // fabric8's mock server extension builds its Context the same way
	static void applyIfNoCluster(SpringApplication application) {
		String mode = System.getProperty("demo", System.getenv().getOrDefault("DEMO", "auto"));
		if ("false".equals(mode) || ("auto".equals(mode) && clusterAnswers())) {
			return;
		}
		KubernetesMockServer server = new KubernetesMockServer(new Context(Serialization.jsonMapper()),
				new MockWebServer(), new java.util.HashMap<>(), new KubernetesMixedDispatcher(new java.util.HashMap<>()),
				false);
		server.init();
		KubernetesClient client = server.createClient();
		logger.warn("DEMO MODE: no Kubernetes cluster answered, so this run uses an embedded fabric8 MOCK API server at "
				+ client.getMasterUrl() + " (not a real kube-apiserver). Set -Ddemo=false to require a cluster.");
		seed(client);
		application.setAdditionalProfiles("demo");
		application.addInitializers((context) -> {
			context.getBeanFactory().registerSingleton("demoKubernetesClient", client);
			ScheduledExecutorService traffic = Executors.newSingleThreadScheduledExecutor((task) -> {
				Thread thread = new Thread(task, "demo-traffic");
				thread.setDaemon(true);
				return thread;
			});
			AtomicInteger tick = new AtomicInteger();
			traffic.scheduleWithFixedDelay(() -> change(client, tick.incrementAndGet()), 3, 2, TimeUnit.SECONDS);
			context.addApplicationListener((ContextClosedEvent event) -> {
				traffic.shutdownNow();
				client.close();
				server.destroy();
			});
		});
	}

	private static boolean clusterAnswers() {
		Config config = new ConfigBuilder(Config.autoConfigure(null)).withRequestRetryBackoffLimit(0)
			.withConnectionTimeout((int) Duration.ofSeconds(2).toMillis())
			.withRequestTimeout((int) Duration.ofSeconds(3).toMillis())
			.build();
		try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
			client.getKubernetesVersion();
			return true;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private static void seed(KubernetesClient client) {
		for (String namespace : new String[] { "default", "team-a" }) {
			client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
				.create();
		}
		for (int i = 1; i <= 3; i++) {
			client.configMaps()
				.resource(new ConfigMapBuilder().withNewMetadata()
					.withNamespace("default")
					.withName("settings-" + i)
					.withLabels(Map.of("app", "web"))
					.endMetadata()
					.withData(Map.of("revision", "0"))
					.build())
				.create();
		}
	}

	private static void change(KubernetesClient client, int tick) {
		try {
			String name = "settings-" + (tick % 3 + 1);
			switch (tick % 4) {
				case 0 -> client.configMaps()
					.resource(new ConfigMapBuilder().withNewMetadata()
						.withNamespace("team-a")
						.withName("feature-" + tick)
						.withLabels(Map.of("app", "api"))
						.endMetadata()
						.withData(Map.of("enabled", "true"))
						.build())
					.create();
				case 1 -> client.configMaps().inNamespace("default").withName(name).edit((cm) -> {
					cm.getData().put("revision", Integer.toString(tick));
					return cm;
				});
				case 2 -> client.configMaps().inNamespace("team-a").withName("feature-" + (tick - 2)).delete();
				default -> client.configMaps().inNamespace("default").withName(name).edit((cm) -> {
					cm.getData().put("revision", Integer.toString(tick));
					return cm;
				});
			}
		}
		catch (RuntimeException ex) {
			logger.debug("Demo change " + tick + " failed", ex);
		}
	}

}
