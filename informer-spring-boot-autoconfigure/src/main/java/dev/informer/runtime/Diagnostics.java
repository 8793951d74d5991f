package dev.informer.runtime;

import java.net.URL;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

import dev.informer.InformerDefinition;
import dev.informer.InformerStartupException;
import dev.informer.InformerState;
import dev.informer.InvalidInformerDeclarationException;
import dev.informer.RbacRules;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.Watch;

/**
 * Explains failures to whoever must act on them, in one place: why startup failed or
 * timed out, the RBAC rule that is missing, where the client's configuration came from.
 *
 * @since 0.1.0
 */
public final class Diagnostics {

	private Diagnostics() {
	}

	/**
	 * Explain why informers failed to start: what the first failed watch could not do,
	 * and what to do about it.
	 * @param informers the informers
	 * @param cause the failure
	 * @return the exception to throw
	 */
	static RuntimeException startFailure(Collection<? extends ResourceInformer<?>> informers, Throwable cause) {
		if (cause instanceof InvalidInformerDeclarationException invalid) {
			// the first list showed the declaration cannot work (on-change: generation)
			return invalid;
		}
		int code = KubernetesErrors.httpCode(cause);
		for (ResourceInformer<?> informer : informers) {
			Watch namespaces = informer.getNamespaceWatch();
			if (namespaces != null && namespaces.getState() == InformerState.FAILED) {
				return namespaceSelectionFailure(informer, code, cause);
			}
			for (Watch status : informer.getWatches()) {
				if (status.getState() == InformerState.FAILED) {
					String where = (status.getNamespace() != null) ? "namespace " + status.getNamespace()
							: (informer.getDefinition().isNamespaced() ? "all namespaces" : "the cluster");
					String resource = informer.getDefinition().getPlural()
							+ (informer.getDefinition().getDeclaration().getGroup().isEmpty() ? ""
									: "." + informer.getDefinition().getDeclaration().getGroup());
					if (code == 403) {
						return new InformerStartupException(
								"Informer '" + informer.getName() + "' is forbidden to list " + resource + " in "
										+ where + " (HTTP 403 Forbidden): " + KubernetesErrors.message(cause),
								"Grant the application's identity 'list' and 'watch' on " + resource + " with this "
										+ missingRule(informer.getDefinition(), status.getNamespace())
										+ "\nor set informer.startup.fail-on-forbidden=false to start anyway and "
										+ "retry in the background.",
								cause);
					}
					if (code == 400) {
						// the server rejected what was declared (a selector): name the
						// property
						return InvalidInformerDeclarationException.rejectedByServer(
								informer.getDefinition().getDeclaration(), KubernetesErrors.serverMessage(cause),
								cause);
					}
					return new InformerStartupException(
							"Informer '" + informer.getName() + "' failed to list " + resource + " in " + where + ": "
									+ KubernetesErrors.reason(cause) + ": " + KubernetesErrors.message(cause),
							"Check the API server and the application's credentials.", cause);
				}
			}
		}
		return new InformerStartupException("Informers failed to start: " + KubernetesErrors.message(cause),
				"Check the API server and the application's credentials.", cause);
	}

	/**
	 * Explain why the watch on Namespaces of an informer's {@code namespace-selector}
	 * failed: without it no namespace can be chosen.
	 */
	private static RuntimeException namespaceSelectionFailure(ResourceInformer<?> informer, int code, Throwable cause) {
		String what = "Informer '" + informer.getName() + "' is forbidden to list namespaces (its namespace-selector '"
				+ informer.getDefinition().getDeclaration().getNamespaceSelector() + "')";
		if (code == 401 || code == 403) {
			return new InformerStartupException(
					what + " (HTTP " + code + " " + KubernetesErrors.reason(cause) + "): "
							+ KubernetesErrors.message(cause),
					"Grant the application's identity 'list' and 'watch' on namespaces with a ClusterRole "
							+ "(namespaces are cluster-scoped) bound by a ClusterRoleBinding, with this rule:\n"
							+ new RbacRules.Rule("", List.of("namespaces"), List.of("list", "watch")).toYaml()
							+ "\nor set informer.startup.fail-on-forbidden=false to start anyway and retry in the "
							+ "background.",
					cause);
		}
		return new InformerStartupException(
				"Informer '" + informer.getName() + "' failed to list namespaces (its namespace-selector '"
						+ informer.getDefinition().getDeclaration().getNamespaceSelector() + "'): "
						+ KubernetesErrors.reason(cause) + ": " + KubernetesErrors.message(cause),
				"Check the API server and the application's credentials.", cause);
	}

	/**
	 * Describe the watches that have not synced, with their last errors.
	 * @param informers the informers
	 * @return the description
	 */
	static String unsynced(Collection<? extends ResourceInformer<?>> informers) {
		return informers.stream()
			.flatMap((informer) -> informer.getUnsynced()
				.stream()
				.map((status) -> "'" + informer.getName() + "'"
						+ ((status.getNamespace() != null) ? " in namespace " + status.getNamespace() : "") + " ("
						+ status.getState()
						+ ((status.getLastError() != null)
								? ", last error: HTTP " + status.getLastError().httpCode() + " "
										+ status.getLastError().reason() + ": " + status.getLastError().message()
								: ", no error yet")
						+ ")"))
			.collect(Collectors.joining("; "));
	}

	/**
	 * Explain that startup was interrupted.
	 * @param ex the interruption
	 * @return the exception to throw
	 */
	static InformerStartupException interrupted(InterruptedException ex) {
		return new InformerStartupException("Interrupted while waiting for informers to sync",
				"Nothing to do: the application is shutting down.", ex);
	}

	/**
	 * Explain that informers did not sync in time.
	 * @param timeout the startup timeout
	 * @param unsynced the {@link #unsynced description} of the watches that did not sync
	 * @return the exception to throw
	 */
	static InformerStartupException notSyncedWithin(Duration timeout, String unsynced) {
		return new InformerStartupException(
				"Informers did not sync within " + timeout + " (informer.startup.timeout): " + unsynced,
				"Fix the errors above, raise informer.startup.timeout for very large collections, or set "
						+ "informer.startup.fail-on-timeout=false to start anyway and let the readiness "
						+ "probe report the informers until they sync.",
				null);
	}

	/**
	 * Describe the Role rule that grants {@code list} and {@code watch} on a resource.
	 * @param definition the informer
	 * @param namespace the namespace, {@code null} for all or cluster scope
	 * @return a YAML snippet of the missing rule
	 */
	public static String missingRule(InformerDefinition<?> definition, @Nullable String namespace) {
		String kind = (namespace != null) ? "Role (namespace " + namespace + ")" : "ClusterRole";
		return kind + " rule:\n" + new RbacRules.Rule(definition.getDeclaration().getGroup(),
				List.of(definition.getPlural()), RbacRules.VERBS)
			.toYaml()
			.stripTrailing();
	}

	/**
	 * Describe where the client's configuration came from.
	 * @param client the client
	 * @param origin what gave the configuration when not fabric8's own resolution (for
	 * example "the application's KubernetesClient bean"), or {@code null}
	 * @return a description
	 */
	public static String configSource(KubernetesClient client, @Nullable String origin) {
		Config config = client.getConfiguration();
		URL url = client.getMasterUrl();
		StringBuilder source = new StringBuilder("API server ").append(url);
		if (origin != null) {
			return source.append(" (from ").append(origin).append(")").toString();
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
