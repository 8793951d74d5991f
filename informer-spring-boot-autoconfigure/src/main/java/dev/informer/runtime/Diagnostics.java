package dev.informer.runtime;

import java.net.URL;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

import dev.informer.InformerDefinition;

/**
 * Explains failures to whoever must act on them: the RBAC rule that is missing, where the
 * client's configuration came from.
 */
public final class Diagnostics {

	private Diagnostics() {
	}

	/**
	 * Describe the Role rule that grants {@code list} and {@code watch} on a resource.
	 * @param definition the informer
	 * @param namespace the namespace, {@code null} for all or cluster scope
	 * @return a YAML snippet of the missing rule
	 */
	public static String missingRule(InformerDefinition<?> definition, @Nullable String namespace) {
		String kind = (namespace != null) ? "Role (namespace " + namespace + ")" : "ClusterRole";
		return kind + " rule:\n  - apiGroups: [\"" + definition.getDeclaration().getGroup() + "\"]\n    resources: [\""
				+ definition.getPlural() + "\"]\n    verbs: [\"list\", \"watch\"]";
	}

	/**
	 * Describe where the client's configuration came from.
	 * @param client the client
	 * @param provided whether the application provided the client
	 * @return a description
	 */
	public static String configSource(KubernetesClient client, boolean provided) {
		Config config = client.getConfiguration();
		URL url = client.getMasterUrl();
		StringBuilder source = new StringBuilder("API server ").append(url);
		if (provided) {
			return source.append(" (from the application's KubernetesClient bean)").toString();
		}
		if (config.getFile() != null) {
			source.append(" (from kubeconfig ").append(config.getFile());
			if (config.getCurrentContext() != null) {
				source.append(", context ").append(config.getCurrentContext().getName());
			}
			return source.append(")").toString();
		}
		if (StringUtils.hasText(System.getenv("KUBERNETES_SERVICE_HOST"))) {
			return source.append(" (from the in-cluster service account)").toString();
		}
		return source.append(" (fabric8 defaults: no kubeconfig found and not running in a cluster)").toString();
	}

}
