package dev.informer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import dev.informer.RbacRules.Rule;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RbacRules}.
 */
class RbacRulesTests {

	private final RbacRules rules = RbacRules.of(List.of(
			definition("configmaps", "v1", "ConfigMap", ConfigMap.class, "configmaps", true, "default", "team-a"),
			definition("pods", "v1", "Pod", Pod.class, "pods", true, "team-a"),
			definition("namespaces", "v1", "Namespace", Namespace.class, "namespaces", false),
			definition("widgets", "example.com/v1", "Widget", GenericKubernetesResource.class, "widgets", true),
			definition("deployments", "apps/v1", "Deployment", Deployment.class, "deployments", true, "default")));

	@Test
	void namespacedKindsInNamedNamespacesGetARolePerNamespace() {
		assertThat(this.rules.getRoles()).containsOnlyKeys("default", "team-a");
		assertThat(this.rules.getRoles().get("default")).containsExactly(
				new Rule("", List.of("configmaps"), List.of("list", "watch")),
				new Rule("apps", List.of("deployments"), List.of("list", "watch")));
		assertThat(this.rules.getRoles().get("team-a"))
			.containsExactly(new Rule("", List.of("configmaps", "pods"), List.of("list", "watch")));
	}

	@Test
	void clusterScopedKindsAndAllNamespaceInformersGetTheClusterRole() {
		assertThat(this.rules.getClusterRole()).containsExactly(
				new Rule("", List.of("namespaces"), List.of("list", "watch")),
				new Rule("example.com", List.of("widgets"), List.of("list", "watch")));
	}

	@Test
	void leaderAndShardedDeliveryAddTheLeaseRulesToTheLeaseNamespacesRole() {
		RbacRules leader = this.rules.withDelivery(Set.of(DeliveryMode.ALL, DeliveryMode.LEADER), "team-a");
		assertThat(leader.getRoles().get("team-a")).containsExactly(
				new Rule("", List.of("configmaps", "pods"), List.of("list", "watch")),
				new Rule("coordination.k8s.io", List.of("leases"), List.of("get", "create", "update")));
		RbacRules sharded = this.rules.withDelivery(Set.of(DeliveryMode.SHARDED), "leases");
		assertThat(sharded.getRoles()).containsOnlyKeys("default", "leases", "team-a");
		assertThat(sharded.getRoles().get("leases")).containsExactly(new Rule("coordination.k8s.io", List.of("leases"),
				List.of("get", "create", "update", "list", "delete")));
		assertThat(sharded.toYaml("app", "apps")).contains("  name: app\n  namespace: leases\n"
				+ "rules:\n  - apiGroups: [\"coordination.k8s.io\"]\n    resources: [leases]\n"
				+ "    verbs: [get, create, update, list, delete]\n");
		assertThat(this.rules.withDelivery(Set.of(DeliveryMode.ALL), "team-a").getRoles())
			.isEqualTo(this.rules.getRoles());
	}

	@Test
	void onlyNamespacedInformersNeedNoClusterRole() {
		RbacRules namespaced = RbacRules
			.of(List.of(definition("pods", "v1", "Pod", Pod.class, "pods", true, "team-a")));
		assertThat(namespaced.getClusterRole()).isEmpty();
		assertThat(namespaced.toYaml("app", "apps")).doesNotContain("ClusterRole");
	}

	@Test
	void aNamespaceSelectorNeedsNamespacesAndTheKindClusterWideAndSaysWhy() {
		InformerDeclaration declaration = InformerDeclaration.builder("tenants")
			.apiVersion("v1")
			.kind("ConfigMap")
			.namespaceSelector("tenant=acme")
			.build();
		RbacRules selected = RbacRules
			.of(List.of(new InformerDefinition<>(declaration, ConfigMap.class, "configmaps", true),
					definition("pods", "v1", "Pod", Pod.class, "pods", true, "team-a")));
		assertThat(selected.getClusterRole())
			.containsExactly(new Rule("", List.of("configmaps", "namespaces"), List.of("list", "watch")));
		assertThat(selected.getRoles()).containsOnlyKeys("team-a");
		String yaml = selected.toYaml("app", "apps");
		assertThat(yaml).contains("kind: ClusterRole\nmetadata:\n  name: app\n# namespace-selector: ")
			.contains("a Role per namespace cannot be granted ahead of time");
		assertThat(new Yaml().loadAll(yaml)).hasSize(4);
	}

	@Test
	@SuppressWarnings("unchecked")
	void yamlHasARoleAndBindingPerNamespaceAndTheClusterRoleBoundToOneServiceAccount() {
		List<Map<String, Object>> documents = new ArrayList<>();
		new Yaml().loadAll(this.rules.toYaml("informer-app", "apps"))
			.forEach((document) -> documents.add((Map<String, Object>) document));
		assertThat(documents)
			.extracting((document) -> document.get("kind") + " "
					+ ((Map<String, Object>) document.get("metadata")).getOrDefault("namespace", "-"))
			.containsExactly("ClusterRole -", "ClusterRoleBinding -", "Role default", "RoleBinding default",
					"Role team-a", "RoleBinding team-a");
		Map<String, Object> role = documents.get(4);
		assertThat((List<Map<String, Object>>) role.get("rules")).containsExactly(Map.of("apiGroups", List.of(""),
				"resources", List.of("configmaps", "pods"), "verbs", List.of("list", "watch")));
		for (Map<String, Object> binding : List.of(documents.get(1), documents.get(3), documents.get(5))) {
			assertThat((List<Map<String, Object>>) binding.get("subjects"))
				.containsExactly(Map.of("kind", "ServiceAccount", "name", "informer-app", "namespace", "apps"));
			assertThat((Map<String, Object>) binding.get("roleRef")).containsEntry("name", "informer-app");
		}
	}

	private static <T extends HasMetadata> InformerDefinition<T> definition(String name, String apiVersion, String kind,
			Class<T> type, String plural, boolean namespaced, String... namespaces) {
		InformerDeclaration declaration = InformerDeclaration.builder(name)
			.apiVersion(apiVersion)
			.kind(kind)
			.namespaces(List.of(namespaces))
			.build();
		return new InformerDefinition<>(declaration, type, plural, namespaced);
	}

}
