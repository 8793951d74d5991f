package dev.informer.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.FileSystemUtils;

/**
 * One real kube-apiserver and etcd for all integration tests of a JVM, run
 * ({@link ApiServerProcesses}) with the certificates of {@code io.fabric8:kube-api-test}
 * in offline mode, from binaries that {@code scripts/envtest.sh} builds from pinned Go
 * modules.
 * <p>
 * Tests that need other server flags start a dedicated server with
 * {@link #startDedicated}; tests that restart the kube-apiserver (same port, same etcd)
 * start one with {@link #startRestartable}. Every server keeps an audit log of the list
 * and watch requests clients make ({@link #requests}), so tests can check the parameters
 * a client sent.
 * <p>
 * Without binaries the tests are skipped with instructions, unless
 * {@code INFORMER_REQUIRE_APISERVER=true} (set by CI), which makes absence a failure.
 */
public final class RealApiServer implements AutoCloseable {

	private static final String REQUIRE = "INFORMER_REQUIRE_APISERVER";

	/**
	 * Records the list and watch requests of clients, not those of the server's own
	 * loopback client: a line when the response starts (watches only) and one when it
	 * completes.
	 */
	private static final String AUDIT_POLICY = """
			apiVersion: audit.k8s.io/v1
			kind: Policy
			omitStages: ["RequestReceived"]
			rules:
			- level: None
			  users: ["system:apiserver"]
			- level: Metadata
			  verbs: ["list", "watch"]
			- level: None
			""";

	private static final JsonMapper json = JsonMapper.builder().build();

	private static RealApiServer instance;

	private final ApiServerProcesses server;

	private final boolean restartable;

	private final Config config;

	private final String version;

	private final Path dir;

	private final boolean shared;

	private final AtomicBoolean stopped = new AtomicBoolean();

	private RealApiServer(ApiServerProcesses server, boolean restartable, Config config, String version, Path dir,
			boolean shared) {
		this.server = server;
		this.restartable = restartable;
		this.config = config;
		this.version = version;
		this.dir = dir;
		this.shared = shared;
	}

	/**
	 * Return the shared server, starting it on first use; skip or fail when there are no
	 * binaries.
	 * @return the server
	 */
	public static synchronized RealApiServer get() {
		if (instance == null) {
			RealApiServer server = start(List.of(), true, false);
			Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "kube-apiserver-stop"));
			instance = server;
		}
		return instance;
	}

	/**
	 * Start a server of its own, for tests that need flags the shared one must not have
	 * (for example {@code --watch-cache=false}); {@link #close()} stops it. It shares the
	 * certificates of the shared server and picks its own random ports, so both can run
	 * at once.
	 * @param flags extra kube-apiserver flags, each as {@code --name=value}
	 * @return the started server
	 */
	public static RealApiServer startDedicated(String... flags) {
		RealApiServer server = start(List.of(flags), false, false);
		Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "kube-apiserver-stop"));
		return server;
	}

	/**
	 * Start a server of its own whose kube-apiserver process can be killed
	 * ({@link #killApiServer()}) and started again ({@link #restartApiServer()}) on the
	 * same port against the same etcd data, as clients see a control-plane restart.
	 * {@link #close()} stops it.
	 * @param flags extra kube-apiserver flags, each as {@code --name=value}
	 * @return the started server
	 */
	public static RealApiServer startRestartable(String... flags) {
		RealApiServer server = start(List.of(flags), false, true);
		Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "kube-apiserver-stop"));
		return server;
	}

	private static RealApiServer start(List<String> flags, boolean shared, boolean restartable) {
		Path root = binaryRoot();
		Optional<String> version = installedVersion(root);
		if (version.isEmpty()) {
			String message = "No kube-apiserver/etcd binaries under " + root.resolve("k8s")
					+ "; build them with 'bash scripts/envtest.sh' (about 10 minutes the first time)";
			if (Boolean.parseBoolean(System.getenv(REQUIRE))) {
				throw new IllegalStateException(message + " (" + REQUIRE + "=true)");
			}
			Assumptions.abort(message);
		}
		Path dir = createDirectory();
		KubeAPIServerConfigBuilder config = KubeAPIServerConfigBuilder.anAPIServerConfig()
			.withTestDir(root.toString())
			.withApiServerVersion(version.get())
			.withOfflineMode(true)
			.withUpdateKubeConfig(false)
			.withStartupTimeout(120_000)
			// serve on loopback only; also works where the machine has no default route
			.withApiServerFlag("--bind-address", "127.0.0.1")
			.withApiServerFlag("--advertise-address", "127.0.0.1")
			.withApiServerFlag("--endpoint-reconciler-type", "none")
			// what clients asked for, as the server saw it (TLS hides it from a proxy)
			.withApiServerFlag("--audit-policy-file", dir.resolve("policy.yaml").toString())
			.withApiServerFlag("--audit-log-path", dir.resolve("audit.log").toString())
			.withApiServerFlags(flags);
		ApiServerProcesses server = new ApiServerProcesses(config.build(), dir);
		try {
			server.start();
		}
		catch (RuntimeException ex) {
			server.stop();
			FileSystemUtils.deleteRecursively(dir.toFile());
			throw ex;
		}
		Config clientConfig = Config.fromKubeconfig(server.kubeConfigYaml());
		return new RealApiServer(server, restartable, clientConfig, version.get(), dir, shared);
	}

	private static Path createDirectory() {
		try {
			Path dir = Files.createTempDirectory("kube-apiserver");
			Files.writeString(dir.resolve("policy.yaml"), AUDIT_POLICY);
			return dir;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static Path binaryRoot() {
		String dir = System.getenv("KUBEAPITEST_DIR");
		return (dir != null && !dir.isBlank()) ? Path.of(dir)
				: Path.of(System.getProperty("user.home"), ".kubeapitest");
	}

	static Optional<String> installedVersion(Path root) {
		Path k8s = root.resolve("k8s");
		if (!Files.isDirectory(k8s)) {
			return Optional.empty();
		}
		try (Stream<Path> dirs = Files.list(k8s)) {
			return dirs
				.filter((dir) -> Stream.of("kube-apiserver", "etcd", "kubectl")
					.allMatch((binary) -> Files.isExecutable(dir.resolve(binary))))
				.map((dir) -> dir.getFileName().toString())
				.filter((name) -> name.endsWith("-linux-amd64"))
				.map((name) -> name.substring(0, name.length() - "-linux-amd64".length()))
				.max(Comparator.comparing(RealApiServer::versionKey));
		}
		catch (IOException ex) {
			return Optional.empty();
		}
	}

	private static String versionKey(String version) {
		StringBuilder key = new StringBuilder();
		for (String part : version.split("\\.")) {
			key.append(String.format("%05d", Integer.parseInt(part.replaceAll("\\D.*", "0"))));
		}
		return key.toString();
	}

	/**
	 * Return a copy of the admin configuration (the client certificate is cluster-admin).
	 * @return the configuration
	 */
	public Config adminConfig() {
		return Config.fromKubeconfig(this.server.kubeConfigYaml());
	}

	/**
	 * Return a copy of the admin configuration that reaches this server through a proxy.
	 * @param proxy the proxy, started by {@link #newProxy()}
	 * @return the configuration
	 */
	public Config adminConfigThrough(TcpProxy proxy) {
		Config config = adminConfig();
		config.setMasterUrl("https://127.0.0.1:" + proxy.getPort());
		return config;
	}

	/**
	 * Start a {@link TcpProxy} in front of this server.
	 * @return the proxy, to close after use
	 * @throws IOException if it cannot listen
	 */
	public TcpProxy newProxy() throws IOException {
		URI api = URI.create(getMasterUrl());
		return new TcpProxy(api.getHost(), api.getPort());
	}

	/**
	 * Create an admin client.
	 * @return the client
	 */
	public KubernetesClient adminClient() {
		return new KubernetesClientBuilder().withConfig(adminConfig()).build();
	}

	public String getVersion() {
		return this.version;
	}

	public String getMasterUrl() {
		return this.config.getMasterUrl();
	}

	/**
	 * Return the requests of one verb that clients made for a resource in a namespace, in
	 * the order the server answered them, from the server's audit log.
	 * @param verb {@code list} or {@code watch}
	 * @param resource the resource, for example {@code configmaps}
	 * @param namespace the namespace
	 * @return the requests
	 */
	public List<ApiRequest> requests(String verb, String resource, String namespace) {
		Path log = this.dir.resolve("audit.log");
		if (!Files.exists(log)) {
			return List.of();
		}
		Map<String, ApiRequest> requests = new LinkedHashMap<>();
		try (Stream<String> lines = Files.lines(log)) {
			// the last line may be half written
			lines.filter((line) -> line.endsWith("}")).map(json::readTree).forEach((event) -> {
				JsonNode object = event.path("objectRef");
				if (verb.equals(event.path("verb").asString()) && resource.equals(object.path("resource").asString())
						&& namespace.equals(object.path("namespace").asString())) {
					// a watch is logged when its response starts and again when it ends
					requests.putIfAbsent(event.path("auditID").asString(),
							new ApiRequest(verb, URI.create(event.path("requestURI").asString())));
				}
			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return List.copyOf(requests.values());
	}

	/**
	 * Kill the kube-apiserver process of a server started with {@link #startRestartable}
	 * (SIGKILL); etcd keeps running with its data. Clients get connection refused until
	 * {@link #restartApiServer()}.
	 */
	public void killApiServer() {
		restartable().killApiServer();
	}

	/**
	 * Start the kube-apiserver process of a server started with {@link #startRestartable}
	 * again, on the same port against the same etcd, and wait until it is ready.
	 */
	public void restartApiServer() {
		restartable().startApiServer();
	}

	/**
	 * Return whether the kube-apiserver process runs.
	 * @return whether it runs
	 */
	public boolean isApiServerRunning() {
		return restartable().isApiServerRunning();
	}

	private ApiServerProcesses restartable() {
		if (!this.restartable) {
			throw new IllegalStateException("Not a restartable server; start it with startRestartable()");
		}
		return this.server;
	}

	/**
	 * Stop a server started with {@link #startDedicated} or {@link #startRestartable};
	 * the shared server stops with the JVM.
	 */
	@Override
	public void close() {
		if (!this.shared) {
			stop();
		}
	}

	private void stop() {
		if (this.stopped.compareAndSet(false, true)) {
			this.server.stop();
			FileSystemUtils.deleteRecursively(this.dir.toFile());
		}
	}

	/**
	 * A request a client made, as the API server logged it.
	 *
	 * @param verb the verb
	 * @param uri the path and query
	 */
	public record ApiRequest(String verb, URI uri) {

		/**
		 * Return one query parameter.
		 * @param name the parameter
		 * @return the decoded value, or {@code null} if absent
		 */
		public @Nullable String parameter(String name) {
			String query = this.uri.getRawQuery();
			if (query == null) {
				return null;
			}
			for (String pair : query.split("&")) {
				int equals = pair.indexOf('=');
				String key = (equals >= 0) ? pair.substring(0, equals) : pair;
				if (key.equals(name)) {
					return (equals >= 0) ? URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8) : "";
				}
			}
			return null;
		}

	}

	/**
	 * Return whether the server answers a watch from the given version with 410 Gone, as
	 * it will answer an informer's: etcd has compacted past it. Compaction is global, so
	 * the probe watches namespace {@code default}, where nothing happens (an answer other
	 * than 410 is silence), and stays out of the requests a test counts in its own
	 * namespace.
	 * @param client the client to probe with
	 * @param resourceVersion the version to watch from
	 * @return whether compacted
	 * @throws Exception if the probe is interrupted
	 */
	static boolean isCompacted(KubernetesClient client, String resourceVersion) throws Exception {
		CompletableFuture<Boolean> gone = new CompletableFuture<>();
		Watch watch = client.configMaps()
			.inNamespace("default")
			.withResourceVersion(resourceVersion)
			.watch(new Watcher<ConfigMap>() {

				@Override
				public void eventReceived(Action action, ConfigMap resource) {
					gone.complete(false);
				}

				@Override
				public void onClose(WatcherException cause) {
					gone.complete(cause.isHttpGone());
				}

			});
		try {
			return gone.completeOnTimeout(false, 1, TimeUnit.SECONDS).get();
		}
		finally {
			watch.close();
		}
	}

}
