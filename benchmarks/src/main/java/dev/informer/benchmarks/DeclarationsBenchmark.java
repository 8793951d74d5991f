package dev.informer.benchmarks;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.openjdk.jol.info.GraphLayout;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.changes.ChangeFilter;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.recovery.RetryPolicy;

/**
 * What {@code prune} and {@code on-change} save, on the API server {@link ApiServer}
 * starts: the deep size (JOL's {@link GraphLayout}, every object reachable from the
 * cached ones, counted once) of ConfigMaps that carry kubectl's last-applied annotation,
 * cached with and without pruning it; and the updates listeners receive when every
 * Deployment gets five status writes and one scale, with {@code on-change: [generation]}
 * and without. Run with
 * {@code ./mvnw -q -B -pl benchmarks -am -Pbenchmark -DskipTests verify
 * -Dbenchmark.main=dev.informer.benchmarks.DeclarationsBenchmark
 * "-Dbenchmark.jvm=-Xmx1g -Djol.magicFieldOffset=true" -Dbenchmark.args=} (JOL needs the
 * property to size records).
 */
public final class DeclarationsBenchmark {

	private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

	private static final int CONFIG_MAPS = 1000;

	private static final int DEPLOYMENTS = 200;

	private static final int STATUS_WRITES = 5;

	private DeclarationsBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		try (ApiServer server = ApiServer.start(false); KubernetesClient client = server.newClient()) {
			System.out.println("Server: " + server.label());
			prune(client);
			onChange(client);
		}
		System.exit(0);
	}

	private static void prune(KubernetesClient client) throws Exception {
		namespace(client, "prune-bench");
		for (int i = 0; i < CONFIG_MAPS; i++) {
			Map<String, String> data = new LinkedHashMap<>();
			for (int key = 0; key < 5; key++) {
				data.put("key-" + key, "v".repeat(100) + i);
			}
			ConfigMap configMap = new ConfigMapBuilder().withNewMetadata()
				.withNamespace("prune-bench")
				.withName("cm-" + i)
				.withLabels(Map.of("app", "bench"))
				.endMetadata()
				.withData(data)
				.build();
			// what kubectl apply stores: the applied manifest, as JSON
			configMap.getMetadata().setAnnotations(Map.of(LAST_APPLIED, Serialization.asJson(configMap)));
			client.configMaps().resource(configMap).create();
		}
		long without = bytesPerObject(client, List.of());
		long with = bytesPerObject(client, List.of("metadata.annotations['" + LAST_APPLIED + "']"));
		System.out.printf(
				"prune: %d ConfigMaps with last-applied-configuration: %d bytes/object cached without "
						+ "prune, %d with (%.0f%% less)%n",
				CONFIG_MAPS, without, with, 100.0 * (without - with) / without);
	}

	private static long bytesPerObject(KubernetesClient client, List<String> prune) throws Exception {
		InformerDeclaration declaration = InformerDeclaration.builder("configmaps")
			.apiVersion("v1")
			.kind("ConfigMap")
			.namespaces(List.of("prune-bench"))
			.prune(prune)
			.build();
		ResourceInformer<ConfigMap> informer = new ResourceInformer<>(
				new InformerDefinition<>(declaration, ConfigMap.class, "configmaps", true),
				new InformerEventPublisher(), RetryPolicy.standard(false), Clock.systemUTC());
		informer.start(client, List.of()).get(60, TimeUnit.SECONDS);
		try {
			List<ConfigMap> cached = informer.getCache().list();
			return GraphLayout.parseInstance(cached.toArray()).totalSize() / cached.size();
		}
		finally {
			informer.stop();
		}
	}

	private static void onChange(KubernetesClient client) throws Exception {
		namespace(client, "on-change-bench");
		AtomicLong generationUpdates = new AtomicLong();
		AtomicLong anyUpdates = new AtomicLong();
		ResourceInformer<Deployment> generation = deployments("generation", List.of("generation"), generationUpdates);
		ResourceInformer<Deployment> any = deployments("any", List.of(), anyUpdates);
		generation.start(client, List.of()).get(60, TimeUnit.SECONDS);
		any.start(client, List.of()).get(60, TimeUnit.SECONDS);
		for (int i = 0; i < DEPLOYMENTS; i++) {
			client.apps().deployments().resource(deployment(i)).create();
		}
		List<Deployment> delivered = client.apps().deployments().inNamespace("on-change-bench").list().getItems();
		for (int write = 1; write <= STATUS_WRITES; write++) {
			int replicas = write;
			for (int i = 0; i < DEPLOYMENTS; i++) {
				client.apps()
					.deployments()
					.inNamespace("on-change-bench")
					.withName("d-" + i)
					.editStatus((deployment) -> {
						deployment.setStatus(new DeploymentStatusBuilder().withObservedGeneration(1L)
							.withReplicas(replicas)
							.build());
						return deployment;
					});
			}
		}
		filterFootprint(delivered, client.apps().deployments().inNamespace("on-change-bench").list().getItems());
		for (int i = 0; i < DEPLOYMENTS; i++) {
			client.apps().deployments().inNamespace("on-change-bench").withName("d-" + i).scale(2);
		}
		long expected = (long) DEPLOYMENTS * (STATUS_WRITES + 1);
		await(() -> anyUpdates.get() == expected && generationUpdates.get() + filtered(generation) == expected);
		System.out.printf(
				"on-change: %d Deployments x (%d status writes + 1 scale): %d updates delivered "
						+ "without on-change, %d with on-change [generation] (%d held back, counted as "
						+ "informer.events.filtered)%n",
				DEPLOYMENTS, STATUS_WRITES, anyUpdates.get(), generationUpdates.get(), filtered(generation));
		generation.stop();
		any.stop();
	}

	/**
	 * The worst case of the filter's memory: every object's latest updates held back, so
	 * that it keeps the delivered version beside the cached one. Measured as the deep
	 * size of the cached objects with the filter, and without, on the server's own
	 * objects.
	 */
	private static void filterFootprint(List<Deployment> delivered, List<Deployment> cached) {
		InformerDeclaration declaration = InformerDeclaration.builder("footprint")
			.apiVersion("apps/v1")
			.kind("Deployment")
			.onChange(List.of("generation"))
			.build();
		ChangeFilter<Deployment> filter = ChangeFilter.of(declaration);
		// as the cache holds them (strip-managed-fields, the default)
		delivered.forEach((deployment) -> deployment.getMetadata().setManagedFields(null));
		cached.forEach((deployment) -> deployment.getMetadata().setManagedFields(null));
		Map<String, Deployment> byName = new LinkedHashMap<>();
		cached.forEach((deployment) -> byName.put(deployment.getMetadata().getName(), deployment));
		for (Deployment first : delivered) {
			String key = first.getMetadata().getNamespace() + "/" + first.getMetadata().getName();
			filter.delivered(key, first);
			if (filter.compare(key, first, byName.get(first.getMetadata().getName())) != null) {
				throw new IllegalStateException("A status write was not held back");
			}
		}
		long cacheAlone = GraphLayout.parseInstance(cached.toArray()).totalSize() / cached.size();
		long withFilter = GraphLayout.parseInstance(cached.toArray(), filter).totalSize() / cached.size();
		System.out.printf("on-change memory: %d bytes/object cached; %d with the filter's entries when every "
				+ "object's latest updates were held back (worst case)%n", cacheAlone, withFilter);
	}

	private static ResourceInformer<Deployment> deployments(String name, List<String> onChange, AtomicLong updates) {
		InformerDeclaration declaration = InformerDeclaration.builder(name)
			.apiVersion("apps/v1")
			.kind("Deployment")
			.namespaces(List.of("on-change-bench"))
			.onChange(onChange)
			.build();
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener((ApplicationListener<ApplicationEvent>) (event) -> {
			if (event instanceof ResourceUpdatedEvent<?>) {
				updates.incrementAndGet();
			}
		});
		return new ResourceInformer<>(new InformerDefinition<>(declaration, Deployment.class, "deployments", true),
				publisher, RetryPolicy.standard(false), Clock.systemUTC());
	}

	private static long filtered(ResourceInformer<? extends HasMetadata> informer) {
		return informer.getWatches().stream().mapToLong((watch) -> watch.snapshot().events().filtered()).sum();
	}

	private static Deployment deployment(int i) {
		Map<String, String> labels = Map.of("app", "d-" + i);
		return new DeploymentBuilder().withNewMetadata()
			.withNamespace("on-change-bench")
			.withName("d-" + i)
			.withLabels(labels)
			.endMetadata()
			.withNewSpec()
			.withReplicas(1)
			.withNewSelector()
			.withMatchLabels(labels)
			.endSelector()
			.withNewTemplate()
			.withNewMetadata()
			.withLabels(labels)
			.endMetadata()
			.withNewSpec()
			.addNewContainer()
			.withName("app")
			.withImage("nginx")
			.endContainer()
			.endSpec()
			.endTemplate()
			.endSpec()
			.build();
	}

	private static void namespace(KubernetesClient client, String name) {
		client.namespaces()
			.resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
			.serverSideApply();
	}

	private static void await(BooleanSupplier condition) throws InterruptedException {
		Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
		while (!condition.getAsBoolean()) {
			if (Instant.now().isAfter(deadline)) {
				throw new IllegalStateException("The informers did not receive every update within 2 minutes");
			}
			Thread.sleep(100);
		}
	}

}
