package dev.informer.autoconfigure;

import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * The one line that says which API server the informers use, as whom and where that came
 * from: the cluster URL, the kubeconfig context and user (or the pod's service account),
 * from the fabric8 {@link Config}. It names credentials, never their values: no token,
 * password, key or certificate reaches it.
 */
final class ConnectionDescription {

	private ConnectionDescription() {
	}

	/**
	 * Describe the client's connection.
	 * @param client the client the informers use
	 * @param origin where the client came from when not from fabric8's own configuration
	 * (the application's bean, connection details), or {@code null}
	 * @return the description
	 */
	static String of(KubernetesClient client, @Nullable String origin) {
		Config config = client.getConfiguration();
		StringBuilder line = new StringBuilder("Informers use the API server ").append(client.getMasterUrl());
		NamedContext context = config.getCurrentContext();
		String user = (context != null && context.getContext() != null) ? context.getContext().getUser() : null;
		if (StringUtils.hasText(user)) {
			line.append(" as user ").append(user);
		}
		else if (StringUtils.hasText(config.getUsername())) {
			line.append(" as user ").append(config.getUsername());
		}
		else if (inCluster(config, origin)) {
			line.append(" as the pod's service account");
		}
		if (StringUtils.hasText(config.getImpersonateUsername())) {
			line.append(", impersonating ").append(config.getImpersonateUsername());
		}
		line.append(" (");
		if (origin != null) {
			line.append(origin);
		}
		else if (config.getFile() != null) {
			line.append("kubeconfig ").append(config.getFile());
		}
		else if (inCluster(config, null)) {
			line.append("in-cluster configuration");
		}
		else {
			line.append("fabric8 defaults: no kubeconfig found and not running in a cluster");
		}
		if (context != null) {
			line.append(", context ").append(context.getName());
		}
		if (StringUtils.hasText(config.getNamespace())) {
			line.append(", default namespace ").append(config.getNamespace());
		}
		return line.append(")").toString();
	}

	private static boolean inCluster(Config config, @Nullable String origin) {
		return origin == null && config.getFile() == null && config.getCurrentContext() == null
				&& StringUtils.hasText(System.getenv("KUBERNETES_SERVICE_HOST"));
	}

}
