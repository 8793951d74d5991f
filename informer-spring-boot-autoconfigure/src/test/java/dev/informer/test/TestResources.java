package dev.informer.test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Builders for the objects tests create.
 */
public final class TestResources {

	private TestResources() {
	}

	public static ConfigMap configMap(String namespace, String name, Map<String, String> labels, String value) {
		return new ConfigMapBuilder().withNewMetadata()
			.withNamespace(namespace)
			.withName(name)
			.withLabels(labels)
			.endMetadata()
			.withData(Map.of("value", value))
			.build();
	}

	public static ConfigMap configMap(String namespace, String name, String value) {
		return configMap(namespace, name, Map.of(), value);
	}

	public static CustomResourceDefinition crd(String plural, String kind) {
		return new CustomResourceDefinitionBuilder().withNewMetadata()
			.withName(plural + ".example.com")
			.endMetadata()
			.withNewSpec()
			.withGroup("example.com")
			.withScope("Namespaced")
			.withNewNames()
			.withPlural(plural)
			.withSingular(kind.toLowerCase())
			.withKind(kind)
			.endNames()
			.addNewVersion()
			.withName("v1")
			.withServed(true)
			.withStorage(true)
			.withNewSchema()
			.withNewOpenAPIV3Schema()
			.withType("object")
			.withXKubernetesPreserveUnknownFields(true)
			.endOpenAPIV3Schema()
			.endSchema()
			.endVersion()
			.endSpec()
			.build();
	}

	/**
	 * Apply a CRD and wait until the API server serves it.
	 */
	public static void applyCrd(KubernetesClient client, String plural, String kind) {
		client.apiextensions().v1().customResourceDefinitions().resource(crd(plural, kind)).serverSideApply();
		client.apiextensions()
			.v1()
			.customResourceDefinitions()
			.withName(plural + ".example.com")
			.waitUntilCondition((crd) -> crd != null && crd.getStatus() != null && crd.getStatus()
				.getConditions()
				.stream()
				.anyMatch((condition) -> "Established".equals(condition.getType())
						&& "True".equals(condition.getStatus())), 60, TimeUnit.SECONDS);
	}

	public static GenericKubernetesResource widget(String namespace, String name, String color) {
		return new GenericKubernetesResourceBuilder().withApiVersion("example.com/v1")
			.withKind("Widget")
			.withNewMetadata()
			.withNamespace(namespace)
			.withName(name)
			.endMetadata()
			.addToAdditionalProperties("spec", Map.of("color", color))
			.build();
	}

}
