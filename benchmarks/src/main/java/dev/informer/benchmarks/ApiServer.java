package dev.informer.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.stream.Stream;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
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

/**
 * The API server the subjects watch: a real kube-apiserver and etcd on loopback (started
 * by {@code io.fabric8:kube-api-test} offline from the binaries
 * {@code scripts/envtest.sh} builds), or fabric8's in-process mock server when there are
 * no binaries or it is asked for. Every subject gets its own client from the same
 * configuration.
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
		Path root = binaryRoot();
		Optional<String> version = mock ? Optional.empty() : installedVersion(root);
		if (version.isPresent()) {
			KubeAPIServer server = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig()
				.withTestDir(root.toString())
				.withApiServerVersion(version.get())
				.withOfflineMode(true)
				.withUpdateKubeConfig(false)
				.withStartupTimeout(120_000)
				// loopback only, as in the integration tests
				.withApiServerFlag("--bind-address", "127.0.0.1")
				.withApiServerFlag("--advertise-address", "127.0.0.1")
				.withApiServerFlag("--endpoint-reconciler-type", "none")
				.withApiServerFlags(java.util.List.of(flags))
				.build());
			server.start();
			ApiServer started = new ApiServer("real kube-apiserver " + version.get() + " + etcd (loopback)", true,
					Config.fromKubeconfig(server.getKubeConfigYaml()), server::stop);
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
		String reason = mock ? "requested" : "no kube-apiserver binaries under " + root.resolve("k8s");
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

	private static Path binaryRoot() {
		String dir = System.getenv("KUBEAPITEST_DIR");
		return (dir != null && !dir.isBlank()) ? Path.of(dir)
				: Path.of(System.getProperty("user.home"), ".kubeapitest");
	}

	private static Optional<String> installedVersion(Path root) {
		Path k8s = root.resolve("k8s");
		if (!Files.isDirectory(k8s)) {
			return Optional.empty();
		}
		try (Stream<Path> dirs = Files.list(k8s)) {
			return dirs
				.filter((dir) -> Stream.of("kube-apiserver", "etcd")
					.allMatch((binary) -> Files.isExecutable(dir.resolve(binary))))
				.map((dir) -> dir.getFileName().toString())
				.filter((name) -> name.endsWith("-linux-amd64"))
				.map((name) -> name.substring(0, name.length() - "-linux-amd64".length()))
				.max(Comparator.naturalOrder());
		}
		catch (IOException ex) {
			return Optional.empty();
		}
	}

}
