package dev.informer.runtime;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

import dev.informer.test.MockApiServer;

/**
 * The CRUD mock API server of a runtime test and the informers the test runs on it:
 * closing it stops them, then the server. A test declares it {@code @AutoClose} instead
 * of a stop method of its own.
 */
final class InformerMock implements AutoCloseable {

	private final MockApiServer mock = MockApiServer.crud();

	private final List<ResourceInformer<?>> informers = new CopyOnWriteArrayList<>();

	KubernetesClient client() {
		return this.mock.client();
	}

	KubernetesMockServer server() {
		return this.mock.server();
	}

	/**
	 * Stop {@code informer} when this closes, before the server.
	 * @param <T> the resource type
	 * @param informer the informer
	 * @return the informer
	 */
	<T extends HasMetadata> ResourceInformer<T> stopping(ResourceInformer<T> informer) {
		this.informers.add(informer);
		return informer;
	}

	@Override
	public void close() {
		try {
			this.informers.forEach(ResourceInformer::stop);
		}
		finally {
			this.mock.close();
		}
	}

}
