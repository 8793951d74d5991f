package dev.informer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The least Kubernetes RBAC the declared informers need: {@code list} and {@code watch}
 * on each declared resource, in a Role per declared namespace for namespaced kinds
 * watched in named namespaces, and in a ClusterRole for cluster-scoped kinds and
 * informers of all namespaces. An informer with a {@code namespace-selector} needs
 * {@code list} and {@code watch} on Namespaces and on its kind cluster-wide (in the
 * ClusterRole): the namespaces it will watch appear at runtime, so no Role can be granted
 * in them ahead of time. Nothing else: API discovery is granted to every authenticated
 * identity by Kubernetes' default {@code system:discovery} ClusterRole.
 * <p>
 * Computed from resolved {@link InformerDefinition definitions} (the plural and the scope
 * come from the API server), for example {@code RbacRules.of(registry)} in a running
 * application, and printed as manifests with {@link #toYaml(String, String)}.
 *
 * @since 0.1.0
 */
public final class RbacRules {

	/**
	 * The verbs an informer uses: one list (again on relist), then a watch.
	 */
	public static final List<String> VERBS = List.of("list", "watch");

	/**
	 * Why an informer with a {@code namespace-selector} needs cluster-wide rules, printed
	 * above the ClusterRole's rules.
	 */
	static final String SELECTOR_REASON = "# namespace-selector: list/watch namespaces to follow the selection, and the "
			+ "kind cluster-wide: matching namespaces appear at runtime, so a Role per namespace cannot be granted "
			+ "ahead of time";

	/**
	 * The verbs on Leases of {@link DeliveryMode#LEADER}: read, take and renew the
	 * group's Lease.
	 */
	public static final List<String> LEADER_LEASE_VERBS = List.of("get", "create", "update");

	/**
	 * The verbs on Leases of {@link DeliveryMode#SHARDED}: each replica's own Lease,
	 * {@code list} to find the members, and {@code delete} for its own Lease when it
	 * stops and for the Leases of members gone for good.
	 */
	public static final List<String> SHARDED_LEASE_VERBS = List.of("get", "create", "update", "list", "delete");

	private static final String LEASE_GROUP = "coordination.k8s.io";

	private final Map<String, List<Rule>> roles;

	private final List<Rule> clusterRole;

	private final boolean namespaceSelector;

	private RbacRules(Map<String, List<Rule>> roles, List<Rule> clusterRole, boolean namespaceSelector) {
		this.roles = roles;
		this.clusterRole = clusterRole;
		this.namespaceSelector = namespaceSelector;
	}

	/**
	 * Compute the rules of the informers of a registry.
	 * @param registry the application's informers
	 * @return the rules
	 */
	public static RbacRules of(InformerRegistry registry) {
		List<InformerDefinition<?>> definitions = new ArrayList<>();
		registry.informers().forEach((informer) -> definitions.add(informer.getDefinition()));
		return of(definitions);
	}

	/**
	 * Compute the rules of informer definitions.
	 * @param definitions the definitions
	 * @return the rules
	 */
	public static RbacRules of(Collection<? extends InformerDefinition<?>> definitions) {
		Map<String, Map<String, SortedSet<String>>> namespaced = new TreeMap<>();
		Map<String, SortedSet<String>> cluster = new TreeMap<>();
		boolean namespaceSelector = false;
		for (InformerDefinition<?> definition : definitions) {
			String group = definition.getDeclaration().getGroup();
			List<String> namespaces = definition.getDeclaration().getNamespaces();
			if (definition.getDeclaration().getNamespaceSelector() != null) {
				// the watch on Namespaces, and the kind in namespaces not known yet
				namespaceSelector = true;
				cluster.computeIfAbsent("", (key) -> new TreeSet<>()).add("namespaces");
				cluster.computeIfAbsent(group, (key) -> new TreeSet<>()).add(definition.getPlural());
			}
			else if (definition.isNamespaced() && !namespaces.isEmpty()) {
				for (String namespace : namespaces) {
					namespaced.computeIfAbsent(namespace, (key) -> new TreeMap<>())
						.computeIfAbsent(group, (key) -> new TreeSet<>())
						.add(definition.getPlural());
				}
			}
			else {
				cluster.computeIfAbsent(group, (key) -> new TreeSet<>()).add(definition.getPlural());
			}
		}
		Map<String, List<Rule>> roles = new TreeMap<>();
		namespaced.forEach((namespace, byGroup) -> roles.put(namespace, rules(byGroup)));
		return new RbacRules(Collections.unmodifiableMap(roles), rules(cluster), namespaceSelector);
	}

	private static List<Rule> rules(Map<String, SortedSet<String>> byGroup) {
		List<Rule> rules = new ArrayList<>();
		byGroup.forEach((group, resources) -> rules.add(new Rule(group, List.copyOf(resources), VERBS)));
		return List.copyOf(rules);
	}

	/**
	 * Return these rules plus what delivery across replicas needs: in the Lease
	 * namespace's Role, {@code get}, {@code create} and {@code update} on
	 * {@code coordination.k8s.io} Leases for {@link DeliveryMode#LEADER} (the group's
	 * Lease) and {@link DeliveryMode#SHARDED} (each replica's own), and {@code list} for
	 * {@code sharded} (to find the members). Nothing for {@link DeliveryMode#ALL}.
	 * @param modes the delivery modes the informers use
	 * @param leaseNamespace the namespace of the Leases
	 * @return the rules
	 */
	public RbacRules withDelivery(Collection<DeliveryMode> modes, String leaseNamespace) {
		if (!modes.contains(DeliveryMode.LEADER) && !modes.contains(DeliveryMode.SHARDED)) {
			return this;
		}
		List<String> verbs = modes.contains(DeliveryMode.SHARDED) ? SHARDED_LEASE_VERBS : LEADER_LEASE_VERBS;
		Map<String, List<Rule>> roles = new TreeMap<>(this.roles);
		List<Rule> rules = new ArrayList<>(roles.getOrDefault(leaseNamespace, List.of()));
		rules.add(new Rule(LEASE_GROUP, List.of("leases"), verbs));
		roles.put(leaseNamespace, List.copyOf(rules));
		return new RbacRules(Collections.unmodifiableMap(roles), this.clusterRole, this.namespaceSelector);
	}

	/**
	 * Return the rules of the Role each namespace needs, by namespace (sorted).
	 * @return the Role rules
	 */
	public Map<String, List<Rule>> getRoles() {
		return this.roles;
	}

	/**
	 * Return the rules of the ClusterRole; empty when every informer is namespaced to
	 * named namespaces.
	 * @return the ClusterRole rules
	 */
	public List<Rule> getClusterRole() {
		return this.clusterRole;
	}

	/**
	 * Render the rules as Kubernetes manifests: a Role and RoleBinding per namespace and,
	 * if needed, a ClusterRole and ClusterRoleBinding, all bound to one ServiceAccount.
	 * @param name the name of the roles, bindings and ServiceAccount
	 * @param serviceAccountNamespace the namespace of the ServiceAccount
	 * @return multi-document YAML
	 */
	public String toYaml(String name, String serviceAccountNamespace) {
		StringBuilder yaml = new StringBuilder();
		String subjects = "subjects:\n  - kind: ServiceAccount\n    name: " + name + "\n    namespace: "
				+ serviceAccountNamespace + "\n";
		if (!this.clusterRole.isEmpty()) {
			yaml.append("---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: ")
				.append(name)
				.append('\n');
			if (this.namespaceSelector) {
				yaml.append(SELECTOR_REASON).append('\n');
			}
			appendRules(yaml, this.clusterRole);
			yaml.append("---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: ")
				.append(name)
				.append("\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: ")
				.append(name)
				.append('\n')
				.append(subjects);
		}
		this.roles.forEach((namespace, rules) -> {
			yaml.append("---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: ")
				.append(name)
				.append("\n  namespace: ")
				.append(namespace)
				.append('\n');
			appendRules(yaml, rules);
			yaml.append("---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: ")
				.append(name)
				.append("\n  namespace: ")
				.append(namespace)
				.append("\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: ")
				.append(name)
				.append('\n')
				.append(subjects);
		});
		return yaml.toString();
	}

	private static void appendRules(StringBuilder yaml, List<Rule> rules) {
		yaml.append("rules:\n");
		rules.forEach((rule) -> yaml.append(rule.toYaml()));
	}

	@Override
	public String toString() {
		return "RbacRules[roles=" + this.roles + ", clusterRole=" + this.clusterRole + "]";
	}

	/**
	 * One RBAC policy rule.
	 *
	 * @param apiGroup the API group, empty for the core group
	 * @param resources the plural resource names
	 * @param verbs the verbs
	 * @since 0.1.0
	 */
	public record Rule(String apiGroup, List<String> resources, List<String> verbs) {

		/**
		 * Render the rule as an item of a Role's {@code rules} list, the one form every
		 * message and manifest of the starter prints.
		 * @return YAML, ending with a new line
		 */
		public String toYaml() {
			return "  - apiGroups: [\"" + this.apiGroup + "\"]\n    resources: [" + String.join(", ", this.resources)
					+ "]\n    verbs: [" + String.join(", ", this.verbs) + "]\n";
		}

	}

}
