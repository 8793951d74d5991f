package dev.informer.sample;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.informer.InformerRegistry;

/**
 * What demo mode does to its API server: installs the Widget CRD, seeds objects, then
 * every {@value #PERIOD_SECONDS} seconds makes one change, cycling through creations,
 * updates and deletions of ConfigMaps, Pods and Widgets, and relists the ConfigMap
 * informer once (what a reconnect after 410 Gone does) so that every kind of event shows
 * within 30 seconds.
 */
final class DemoTraffic implements AutoCloseable {

	static final int PERIOD_SECONDS = 2;

	/**
	 * The tick at which the ConfigMap informer is relisted, and every how many ticks
	 * after.
	 */
	static final int RELIST_TICK = 7;

	static final int RELIST_EVERY = 60;

	private static final Log logger = LogFactory.getLog(DemoTraffic.class);

	private static final ResourceDefinitionContext WIDGETS = new ResourceDefinitionContext.Builder()
		.withGroup("example.com")
		.withVersion("v1")
		.withKind("Widget")
		.withPlural("widgets")
		.withNamespaced(true)
		.build();

	private static final String[] COLORS = { "red", "green", "blue" };

	private final KubernetesClient client;

	private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "demo-traffic");
		thread.setDaemon(true);
		return thread;
	});

	private final AtomicInteger tick = new AtomicInteger();

	DemoTraffic(KubernetesClient client) {
		this.client = client;
	}

	/**
	 * Install the Widget CRD and the objects informers list at startup.
	 * @param real whether the server is a real kube-apiserver (which needs the CRD
	 * established and a service account for pods)
	 */
	void seed(boolean real) {
		WidgetCrd.install(this.client, real);
		for (String namespace : new String[] { "default", "team-a" }) {
			apply(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build());
			// no controller manager creates it; pod admission needs it
			apply(new ServiceAccountBuilder().withNewMetadata()
				.withNamespace(namespace)
				.withName("default")
				.endMetadata()
				.build());
		}
		for (int i = 1; i <= 3; i++) {
			apply(new ConfigMapBuilder().withNewMetadata()
				.withNamespace("default")
				.withName("settings-" + i)
				.withLabels(Map.of("app", "web"))
				.endMetadata()
				.withData(Map.of("revision", "0"))
				.build());
		}
		if (real) {
			// not selected by 'app in (web,api)': the API server never sends it
			apply(new ConfigMapBuilder().withNewMetadata()
				.withNamespace("default")
				.withName("unrelated")
				.withLabels(Map.of("app", "batch"))
				.endMetadata()
				.build());
		}
		else {
			// the mock would deliver it, as if the selector let it through
			logger.info("DEMO: fabric8's mock API server does not evaluate label selectors, so the demo creates "
					+ "no ConfigMap outside 'app in (web,api)' here; on a real API server it creates "
					+ "default/unrelated (app=batch), which the configmaps informer never receives");
		}
		for (int i = 1; i <= 2; i++) {
			apply(pod("default", "web-" + i));
		}
		widgets().inNamespace("default")
			.resource(widget("default", "gizmo", "red"))
			.createOr(NonDeletingOperation::update);
		widgets().inNamespace("team-a")
			.resource(widget("team-a", "sprocket", "blue"))
			.createOr(NonDeletingOperation::update);
	}

	/**
	 * Start changing objects, and relisting through the registry.
	 * @param registry the application's informers
	 */
	void start(InformerRegistry registry) {
		this.executor.scheduleWithFixedDelay(() -> step(registry, this.tick.incrementAndGet()), PERIOD_SECONDS,
				PERIOD_SECONDS, TimeUnit.SECONDS);
	}

	private void step(InformerRegistry registry, int tick) {
		try {
			change(tick);
			if (tick == RELIST_TICK || (tick > RELIST_TICK && (tick - RELIST_TICK) % RELIST_EVERY == 0)) {
				logger.info("DEMO: relisting informer 'configmaps' through InformerRegistry, as after a lost watch "
						+ "(410 Gone); only real differences become events. Counted in informer_relists_total"
						+ "{reason=\"manual\"}.");
				registry.informer("configmaps").relist();
			}
		}
		catch (RuntimeException ex) {
			logger.warn("DEMO: change " + tick + " failed: " + ex.getMessage());
		}
	}

	private void change(int tick) {
		String color = COLORS[tick % COLORS.length];
		// ticks start at 1: each creation comes a few ticks before its deletion
		switch ((tick - 1) % 10) {
			case 0 -> create(new ConfigMapBuilder().withNewMetadata()
				.withNamespace("team-a")
				.withName("feature-" + tick)
				.withLabels(Map.of("app", "api"))
				.endMetadata()
				.withData(Map.of("enabled", "true"))
				.build());
			case 1 -> this.client.pods().inNamespace("default").withName("web-1").edit((pod) -> {
				pod.getMetadata().getLabels().put("revision", Integer.toString(tick));
				return pod;
			});
			case 2 -> widgets().inNamespace("default").resource(widget("default", "widget-" + tick, color)).create();
			case 3 ->
				this.client.configMaps().inNamespace("default").withName("settings-" + (tick % 3 + 1)).edit((cm) -> {
					cm.getData().put("revision", Integer.toString(tick));
					return cm;
				});
			case 4 -> widgets().inNamespace("default").withName("gizmo").edit((widget) -> {
				widget.setAdditionalProperty("spec", Map.of("color", color));
				return widget;
			});
			case 5 -> create(pod("default", "job-" + tick));
			case 6 -> this.client.configMaps().inNamespace("team-a").withName("feature-" + (tick - 6)).delete();
			case 7 -> widgets().inNamespace("default").withName("widget-" + (tick - 5)).delete();
			case 8 ->
				this.client.pods().inNamespace("default").withName("job-" + (tick - 3)).withGracePeriod(0).delete();
			default -> this.client.namespaces().withName("team-a").edit((namespace) -> {
				namespace.getMetadata().setLabels(Map.of("revision", Integer.toString(tick)));
				return namespace;
			});
		}
	}

	private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> widgets() {
		return this.client.genericKubernetesResources(WIDGETS);
	}

	private void apply(HasMetadata resource) {
		this.client.resource(resource).createOr(NonDeletingOperation::update);
	}

	private void create(HasMetadata resource) {
		this.client.resource(resource).create();
	}

	private static HasMetadata pod(String namespace, String name) {
		return new PodBuilder().withNewMetadata()
			.withNamespace(namespace)
			.withName(name)
			.withLabels(new HashMap<>(Map.of("app", "web")))
			.endMetadata()
			.withNewSpec()
			.addNewContainer()
			.withName("app")
			.withImage("registry.k8s.io/pause:3.10")
			.endContainer()
			.endSpec()
			.build();
	}

	static GenericKubernetesResource widget(String namespace, String name, String color) {
		return new GenericKubernetesResourceBuilder().withApiVersion("example.com/v1")
			.withKind("Widget")
			.withNewMetadata()
			.withNamespace(namespace)
			.withName(name)
			.endMetadata()
			.addToAdditionalProperties("spec", Map.of("color", color))
			.build();
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

}
