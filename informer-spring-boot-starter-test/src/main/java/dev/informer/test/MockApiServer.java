package dev.informer.test;

import java.util.HashMap;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import org.springframework.beans.factory.DisposableBean;

import dev.informer.autoconfigure.KubernetesConnectionDetails;

/**
 * fabric8's mock API server in CRUD mode, on a random loopback port, for one application
 * context.
 */
final class MockApiServer implements KubernetesConnectionDetails, DisposableBean {

	private final KubernetesMockServer server;

	private final Config config;

	MockApiServer() {
		MockServerRuntime.check();
		this.server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
				new KubernetesCrudDispatcher(), false);
		this.server.init();
		try (KubernetesClient client = this.server.createClient()) {
			this.config = client.getConfiguration();
		}
	}

	@Override
	public Config getConfig() {
		return new ConfigBuilder(this.config).build();
	}

	@Override
	public void destroy() {
		this.server.destroy();
	}

}
