package dev.informer.it;

import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.ResolvableType;

import dev.informer.InformerRegistry;
import dev.informer.InvalidInformerDeclarationException;
import dev.informer.ResourceCache;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code on-change}, {@code prune} and {@code indexes} on a real API server, for a typed
 * kind (Deployments: status writes are noise, a scale bumps the generation), a custom
 * resource watched as {@code GenericKubernetesResource} (the server bumps a CR's
 * generation on every change outside metadata) and a metadata-only informer (a data edit
 * reaches it as an update that changes only the resourceVersion).
 */
@ExtendWith(OutputCaptureExtension.class)
class ResourceDeclarationsIT {

	private static final String NS = "it-declarations";

	private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

	private static KubernetesClient admin;

	private final ApplicationContextRunner runner = InformerContexts.runner(() -> admin)
		.withBean(RecordingListener.class)
		.withPropertyValues("informer.resources.deployments.api-version=apps/v1",
				"informer.resources.deployments.kind=Deployment", "informer.resources.deployments.namespaces=" + NS,
				"informer.resources.deployments.on-change=generation",
				"informer.resources.deployments.indexes.by-app=metadata.labels['app']",
				"informer.resources.deployments.prune=metadata.annotations['" + LAST_APPLIED + "']",
				"informer.resources.widgets.api-version=example.com/v1", "informer.resources.widgets.kind=Widget",
				"informer.resources.widgets.namespaces=" + NS, "informer.resources.widgets.on-change=generation",
				"informer.resources.widgets.indexes.by-color=spec.color",
				"informer.resources.configmaps.api-version=v1", "informer.resources.configmaps.kind=ConfigMap",
				"informer.resources.configmaps.namespaces=" + NS, "informer.resources.configmaps.cache=metadata",
				"informer.resources.configmaps.label-selector=it=declarations",
				"informer.resources.configmaps.on-change=labels",
				"informer.resources.configmaps.indexes.by-colour=metadata.labels['colour']",
				"informer.resources.configmaps.prune=metadata.annotations['" + LAST_APPLIED + "']");

	@BeforeAll
	static void createObjects() {
		admin = RealApiServer.get().adminClient();
		TestResources.createNamespaces(admin, NS);
		TestResources.applyCrd(admin, "widgets", "Widget");
		admin.apps()
			.deployments()
			.resource(new DeploymentBuilder().withNewMetadata()
				.withNamespace(NS)
				.withName("web")
				.withLabels(Map.of("app", "web"))
				.withAnnotations(Map.of(LAST_APPLIED, "{\"large\":true}"))
				.endMetadata()
				.withNewSpec()
				.withReplicas(1)
				.withNewSelector()
				.withMatchLabels(Map.of("app", "web"))
				.endSelector()
				.withNewTemplate()
				.withNewMetadata()
				.withLabels(Map.of("app", "web"))
				.endMetadata()
				.withNewSpec()
				.addNewContainer()
				.withName("web")
				.withImage("nginx")
				.endContainer()
				.endSpec()
				.endTemplate()
				.endSpec()
				.build())
			.create();
		admin.genericKubernetesResources("example.com/v1", "Widget")
			.resource(TestResources.widget(NS, "w1", "blue"))
			.create();
		ConfigMap configMap = TestResources.configMap(NS, "settings", Map.of("it", "declarations", "colour", "red"),
				"1");
		configMap.getMetadata().setAnnotations(Map.of(LAST_APPLIED, "{\"large\":true}"));
		admin.configMaps().resource(configMap).create();
	}

	@AfterAll
	static void closeClient() {
		if (admin != null) {
			admin.close();
		}
	}

	@Test
	void onlyChangesOfTheDeclaredPartsAreDeliveredForTypedGenericAndMetadataOnlyInformers() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			RecordingListener listener = context.getBean(RecordingListener.class);
			InformerRegistry registry = context.getBean(InformerRegistry.class);
			// one cache bean per informer, typed with the class of its objects
			assertThat(context.getBeanNamesForType(cacheOf(Deployment.class)))
				.containsExactly("informerCache.deployments");
			assertThat(context.getBeanNamesForType(cacheOf(GenericKubernetesResource.class)))
				.containsExactly("informerCache.widgets");
			assertThat(context.getBeanNamesForType(cacheOf(PartialObjectMetadata.class)))
				.containsExactly("informerCache.configmaps");

			// noise: a status write, a label on a custom resource, a data edit
			admin.apps().deployments().inNamespace(NS).withName("web").editStatus((deployment) -> {
				deployment.setStatus(new DeploymentStatusBuilder().withObservedGeneration(1L).withReplicas(1).build());
				return deployment;
			});
			admin.genericKubernetesResources("example.com/v1", "Widget").inNamespace(NS).withName("w1").edit((w) -> {
				w.getMetadata().setLabels(Map.of("noise", "yes"));
				return w;
			});
			admin.configMaps().inNamespace(NS).withName("settings").edit((cm) -> {
				cm.setData(Map.of("value", "2"));
				return cm;
			});
			DefaultInformerRegistry watches = context.getBean(DefaultInformerRegistry.class);
			await().until(() -> filtered(watches, "deployments") == 1 && filtered(watches, "widgets") == 1
					&& filtered(watches, "configmaps") == 1);

			// what matters: a scale, a spec change, a label
			admin.apps().deployments().inNamespace(NS).withName("web").scale(3);
			admin.genericKubernetesResources("example.com/v1", "Widget").inNamespace(NS).withName("w1").edit((w) -> {
				w.setAdditionalProperty("spec", Map.of("color", "green"));
				return w;
			});
			admin.configMaps().inNamespace(NS).withName("settings").edit((cm) -> {
				cm.getMetadata().getLabels().put("colour", "green");
				return cm;
			});
			await().until(() -> listener.events(ResourceUpdatedEvent.class).size() == 3);

			Deployment scaled = (Deployment) update(listener, "deployments").getResource();
			Deployment before = (Deployment) update(listener, "deployments").getOldResource();
			assertThat(scaled.getSpec().getReplicas()).isEqualTo(3);
			// the last delivered state is the add, from before the status write
			assertThat(before.getSpec().getReplicas()).isEqualTo(1);
			assertThat(before.getStatus().getObservedGeneration()).isNull();
			assertThat(scaled.getStatus().getObservedGeneration()).isEqualTo(1L);
			assertThat(scaled.getMetadata().getAnnotations()).doesNotContainKey(LAST_APPLIED);
			assertThat(registry.cache("deployments", Deployment.class).byIndex("by-app", "web")).hasSize(1);

			GenericKubernetesResource widget = (GenericKubernetesResource) update(listener, "widgets").getResource();
			GenericKubernetesResource oldWidget = (GenericKubernetesResource) update(listener, "widgets")
				.getOldResource();
			assertThat(widget.<String>get("spec", "color")).isEqualTo("green");
			assertThat(oldWidget.getMetadata().getLabels()).isNullOrEmpty();
			assertThat(registry.cache("widgets", GenericKubernetesResource.class).indexKeys("by-color"))
				.containsExactly("green");

			PartialObjectMetadata labelled = (PartialObjectMetadata) update(listener, "configmaps").getResource();
			PartialObjectMetadata oldLabels = (PartialObjectMetadata) update(listener, "configmaps").getOldResource();
			assertThat(labelled.getMetadata().getLabels()).containsEntry("colour", "green");
			assertThat(oldLabels.getMetadata().getLabels()).containsEntry("colour", "red");
			assertThat(labelled.getMetadata().getAnnotations()).isNullOrEmpty();
			assertThat(registry.cache("configmaps", PartialObjectMetadata.class).byIndex("by-colour", "green"))
				.hasSize(1);
		});
	}

	@Test
	void aPathAbsentFromEveryListedCustomResourceIsReported(CapturedOutput output) {
		InformerContexts.runner(() -> admin)
			.withPropertyValues("informer.resources.widgets.api-version=example.com/v1",
					"informer.resources.widgets.kind=Widget", "informer.resources.widgets.namespaces=" + NS,
					"informer.resources.widgets.on-change=spec.colour,spec.color")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output.getOut()).contains("on-change path 'spec.colour' selects nothing in any of the 1 listed")
			.doesNotContain("on-change path 'spec.color'");
	}

	@Test
	void generationOnAKindWhoseFirstListLacksItFailsStartup() {
		admin.services()
			.resource(new ServiceBuilder().withNewMetadata()
				.withNamespace(NS)
				.withName("svc")
				.endMetadata()
				.withNewSpec()
				.addNewPort()
				.withPort(80)
				.endPort()
				.endSpec()
				.build())
			.createOr((existing) -> existing.unlock().update());
		InformerContexts.runner(() -> admin)
			.withPropertyValues("informer.resources.services.api-version=v1",
					"informer.resources.services.kind=Service", "informer.resources.services.namespaces=" + NS,
					"informer.resources.services.on-change=generation")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = context.getStartupFailure();
				while (!(failure instanceof InvalidInformerDeclarationException) && failure.getCause() != null) {
					failure = failure.getCause();
				}
				assertThat(failure).isInstanceOf(InvalidInformerDeclarationException.class)
					.hasMessageContaining("on-change[0] 'generation' never changes on Service");
			});
	}

	private static ResolvableType cacheOf(Class<?> type) {
		return ResolvableType.forClassWithGenerics(ResourceCache.class, type);
	}

	private static long filtered(DefaultInformerRegistry registry, String name) {
		return registry.informer(name)
			.getWatches()
			.stream()
			.mapToLong((watch) -> watch.snapshot().events().filtered())
			.sum();
	}

	private static ResourceUpdatedEvent<?> update(RecordingListener listener, String informer) {
		List<ResourceUpdatedEvent<?>> updates = listener.resourceEvents()
			.stream()
			.filter((event) -> event instanceof ResourceUpdatedEvent<?> && informer.equals(event.getInformerName()))
			.<ResourceUpdatedEvent<?>>map(ResourceUpdatedEvent.class::cast)
			.toList();
		assertThat(updates).hasSize(1);
		return updates.get(0);
	}

}
