package dev.informer.autoconfigure;

import io.fabric8.kubernetes.client.Config;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Details required to establish a connection to a Kubernetes API server.
 * <p>
 * When a bean of this type exists (for example the one that {@code @ServiceConnection}
 * creates for a {@code K3sContainer} with {@code informer-spring-boot-starter-test}), the
 * {@code KubernetesClient} that {@link InformerAutoConfiguration} creates connects with
 * its configuration instead of fabric8's kubeconfig and in-cluster discovery.
 *
 * @since 0.1.0
 */
public interface KubernetesConnectionDetails extends ConnectionDetails {

	/**
	 * Return a new client configuration for the server, for a client to own.
	 * @return the configuration
	 */
	Config getConfig();

}
