package dev.informer.test.testcontainers;

import io.fabric8.kubernetes.client.Config;
import org.testcontainers.k3s.K3sContainer;

import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;

import dev.informer.autoconfigure.KubernetesConnectionDetails;

/**
 * {@link ContainerConnectionDetailsFactory} that creates
 * {@link KubernetesConnectionDetails} from a {@code @ServiceConnection}-annotated
 * {@link K3sContainer}, using the admin kubeconfig the container writes.
 */
class K3sContainerConnectionDetailsFactory
		extends ContainerConnectionDetailsFactory<K3sContainer, KubernetesConnectionDetails> {

	@Override
	protected KubernetesConnectionDetails getContainerConnectionDetails(
			ContainerConnectionSource<K3sContainer> source) {
		return new K3sContainerConnectionDetails(source);
	}

	/**
	 * {@link KubernetesConnectionDetails} backed by a {@link ContainerConnectionSource}.
	 */
	static final class K3sContainerConnectionDetails extends ContainerConnectionDetails<K3sContainer>
			implements KubernetesConnectionDetails {

		private K3sContainerConnectionDetails(ContainerConnectionSource<K3sContainer> source) {
			super(source);
		}

		@Override
		public Config getConfig() {
			return Config.fromKubeconfig(getContainer().getKubeConfigYaml());
		}

	}

}
