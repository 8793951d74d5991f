package dev.informer.test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
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
	 * Create (or keep) namespaces, with server-side apply.
	 */
	public static void createNamespaces(KubernetesClient client, String... names) {
		for (String name : names) {
			client.namespaces()
				.resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
				.serverSideApply();
		}
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
			// the status exists before its conditions do
			.waitUntilCondition(
					(crd) -> crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
							&& crd.getStatus()
								.getConditions()
								.stream()
								.anyMatch((condition) -> "Established".equals(condition.getType())
										&& "True".equals(condition.getStatus())),
					60, TimeUnit.SECONDS);
	}

	/**
	 * Grant a user list and watch on ConfigMaps in a namespace (a Role and a
	 * RoleBinding).
	 */
	public static void grantConfigMapAccess(KubernetesClient admin, String user, String namespace) {
		admin.rbac()
			.roles()
			.resource(new RoleBuilder().withNewMetadata()
				.withNamespace(namespace)
				.withName("configmap-reader")
				.endMetadata()
				.addNewRule()
				.withApiGroups("")
				.withResources("configmaps")
				.withVerbs("list", "watch")
				.endRule()
				.build())
			.serverSideApply();
		admin.rbac()
			.roleBindings()
			.resource(new RoleBindingBuilder().withNewMetadata()
				.withNamespace(namespace)
				.withName(user + "-configmap-reader")
				.endMetadata()
				.withNewRoleRef("rbac.authorization.k8s.io", "Role", "configmap-reader")
				.addNewSubject()
				.withKind("User")
				.withName(user)
				.withApiGroup("rbac.authorization.k8s.io")
				.endSubject()
				.build())
			.serverSideApply();
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
