package dev.informer.test;

import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * fabric8's mock API server in CRUD mode (expectations take precedence), with a client.
 * <p>
 * Used instead of {@code @EnableKubernetesMockClient} because the Vert.x 5 server behind
 * it waits up to 10 s for every WebSocket to answer its Close frame on shutdown and then
 * throws "Unable to close MockWebServer" (fabric8 kubernetes-client PR 8131 discusses the
 * behaviour change); a test class's teardown must not fail a run for that.
 */
public final class MockApiServer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(MockApiServer.class);

	private final KubernetesMockServer server;

	private final KubernetesClient client;

	private final Map<ServerRequest, Queue<ServerResponse>> expectations;

	private MockApiServer(KubernetesMockServer server, Map<ServerRequest, Queue<ServerResponse>> expectations) {
		this.server = server;
		this.client = server.createClient();
		this.expectations = expectations;
	}

	/**
	 * Start a CRUD-mode server that also answers expectations.
	 * @return the server
	 */
	@SuppressWarnings("deprecation") // fabric8's mock server extension builds its Context
										// the same way
	public static MockApiServer crud() {
		Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
		KubernetesMockServer server = new KubernetesMockServer(new Context(Serialization.jsonMapper()),
				new MockWebServer(), responses, new KubernetesMixedDispatcher(responses), false);
		server.init();
		return new MockApiServer(server, responses);
	}

	/**
	 * Start a server that only answers expectations.
	 * @return the server
	 */
	public static MockApiServer expectations() {
		KubernetesMockServer server = new KubernetesMockServer(false);
		server.init();
		return new MockApiServer(server, new HashMap<>());
	}

	/**
	 * Answer discovery of the core group with ConfigMaps, for servers in expectations
	 * mode.
	 * @return this server
	 */
	public MockApiServer withCoreDiscovery() {
		return withCoreDiscovery("configmaps", "ConfigMap");
	}

	/**
	 * Answer core discovery ({@code /api/v1}) with one namespaced resource.
	 * @param plural the resource's plural name
	 * @param kind the resource's kind
	 * @return this server
	 */
	public MockApiServer withCoreDiscovery(String plural, String kind) {
		this.server.expect()
			.get()
			.withPath("/api/v1")
			.andReturn(200,
					new APIResourceListBuilder().withGroupVersion("v1")
						.addNewResource()
						.withName(plural)
						.withKind(kind)
						.withNamespaced(true)
						.endResource()
						.build())
			.always();
		return this;
	}

	/**
	 * Withdraw every expectation of a CRUD-mode server, so that it answers from its store
	 * again: for example a 403 that stands for a missing RoleBinding, once the binding
	 * "exists".
	 */
	public void withdrawExpectations() {
		synchronized (this.expectations) {
			this.expectations.clear();
		}
	}

	public KubernetesMockServer server() {
		return this.server;
	}

	public KubernetesClient client() {
		return this.client;
	}

	@Override
	public void close() {
		this.client.close();
		try {
			this.server.destroy();
		}
		catch (IllegalStateException ex) {
			logger.debug("Mock server shutdown timed out waiting for WebSocket close answers", ex);
		}
	}

}
