package dev.informer.test;

import io.fabric8.kubernetes.client.Config;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Details required to establish a connection to a Kubernetes API server.
 * <p>
 * In an {@link InformerTest @InformerTest}, a bean of this type (for example the one that
 * {@code @ServiceConnection} creates for a {@code K3sContainer}) decides which server the
 * test's {@code KubernetesClient} talks to.
 */
public interface KubernetesConnectionDetails extends ConnectionDetails {

	/**
	 * Return a new client configuration for the server, for a client to own.
	 * @return the configuration
	 */
	Config getConfig();

}
