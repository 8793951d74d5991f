package dev.informer.benchmarks;

import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

import io.fabric8.kubernetes.client.Config;
import org.jspecify.annotations.Nullable;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;

import dev.informer.test.RealApiServer;

/**
 * The API server the subjects watch: a real kube-apiserver and etcd on loopback (the test
 * starter's {@link RealApiServer}, from the binaries {@code scripts/envtest.sh} builds),
 * or fabric8's in-process mock server when there are no binaries or it is asked for.
 * Every subject gets its own client from the same configuration.
 */
final class ApiServer implements AutoCloseable {

	/** Held so that the level sticks: the mock server logs every request at INFO. */
	private static final java.util.logging.Logger mockLogger = java.util.logging.Logger
		.getLogger("io.fabric8.mockwebserver");

	private final String label;

	private final boolean real;

	private final Config config;

	private final Runnable stop;

	private @Nullable String kubeConfigYaml;

	private ApiServer(String label, boolean real, Config config, Runnable stop) {
		this.label = label;
		this.real = real;
		this.config = config;
		this.stop = stop;
	}

	/**
	 * Return the kubeconfig of a real server, for clients in other processes.
	 * @return the kubeconfig YAML, {@code null} for the mock server
	 */
	@Nullable String kubeConfigYaml() {
		return this.kubeConfigYaml;
	}

	/**
	 * Return a kubeconfig for clients in other processes: the real server's, or for the
	 * mock server one with its plain-HTTP address and a token it ignores.
	 * @return the kubeconfig YAML
	 */
	String kubeConfigForProcesses() {
		if (this.kubeConfigYaml != null) {
			return this.kubeConfigYaml;
		}
		return """
				apiVersion: v1
				kind: Config
				clusters:
				- name: mock
				  cluster:
				    server: %s
				users:
				- name: mock
				  user:
				    token: mock
				contexts:
				- name: mock
				  context:
				    cluster: mock
				    user: mock
				current-context: mock
				""".formatted(this.config.getMasterUrl().replaceAll("/+$", ""));
	}

	/**
	 * Start the real server when its binaries exist and {@code mock} is false, otherwise
	 * the mock server.
	 * @param mock whether to use the mock server even when binaries exist
	 * @return the started server
	 */
	static ApiServer start(boolean mock) {
		return start(mock, new String[0]);
	}

	/**
	 * Start the real server with extra flags when its binaries exist and {@code mock} is
	 * false, otherwise the mock server.
	 * @param mock whether to use the mock server even when binaries exist
	 * @param flags extra kube-apiserver flags, each as {@code --name=value}
	 * @return the started server
	 */
	static ApiServer start(boolean mock, String... flags) {
		if (!mock && RealApiServer.isInstalled()) {
			// the test starter's server, waited for by the monotonic clock
			RealApiServer server = RealApiServer.start(flags);
			ApiServer started = new ApiServer("real kube-apiserver " + server.getVersion() + " + etcd (loopback)", true,
					server.getConfig(), server::close);
			started.kubeConfigYaml = server.getKubeConfigYaml();
			return started;
		}
		mockLogger.setLevel(java.util.logging.Level.WARNING);
		Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
		@SuppressWarnings("deprecation") // fabric8's mock server extension builds its
											// Context the same way
		Context context = new Context(Serialization.jsonMapper());
		KubernetesMockServer server = new KubernetesMockServer(context, new MockWebServer(), responses,
				new KubernetesMixedDispatcher(responses), false);
		server.init();
		Config config = server.createClient().getConfiguration();
		String reason = mock ? "requested" : "no kube-apiserver binaries (see scripts/envtest.sh)";
		return new ApiServer("FALLBACK: fabric8 MOCK API server, in-process (" + reason + ")", false, config, () -> {
			try {
				server.destroy();
			}
			catch (IllegalStateException ex) {
				// the mock server's Vert.x waits for
				// WebSocket close answers; irrelevant here
			}
		});
	}

	String label() {
		return this.label;
	}

	boolean isReal() {
		return this.real;
	}

	KubernetesClient newClient() {
		return new KubernetesClientBuilder().withConfig(this.config).build();
	}

	@Override
	public void close() {
		this.stop.run();
	}

}
