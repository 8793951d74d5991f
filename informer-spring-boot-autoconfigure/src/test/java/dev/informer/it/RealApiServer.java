package dev.informer.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Assumptions;

/**
 * One real kube-apiserver and etcd for all integration tests of a JVM, started by
 * {@code io.fabric8:kube-api-test} in offline mode from binaries that
 * {@code scripts/envtest.sh} builds from pinned Go modules.
 * <p>
 * Without binaries the tests are skipped with instructions, unless
 * {@code INFORMER_REQUIRE_APISERVER=true} (set by CI), which makes absence a failure.
 */
public final class RealApiServer {

	private static final String REQUIRE = "INFORMER_REQUIRE_APISERVER";

	private static RealApiServer instance;

	private final KubeAPIServer server;

	private final Config config;

	private final String version;

	private RealApiServer(KubeAPIServer server, Config config, String version) {
		this.server = server;
		this.config = config;
		this.version = version;
	}

	/**
	 * Return the shared server, starting it on first use; skip or fail when there are no
	 * binaries.
	 * @return the server
	 */
	public static synchronized RealApiServer get() {
		if (instance == null) {
			Path dir = binaryRoot();
			Optional<String> version = installedVersion(dir);
			if (version.isEmpty()) {
				String message = "No kube-apiserver/etcd binaries under " + dir.resolve("k8s")
						+ "; build them with 'bash scripts/envtest.sh' (about 10 minutes the first time)";
				if (Boolean.parseBoolean(System.getenv(REQUIRE))) {
					throw new IllegalStateException(message + " (" + REQUIRE + "=true)");
				}
				Assumptions.abort(message);
			}
			KubeAPIServer server = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig()
				.withTestDir(dir.toString())
				.withApiServerVersion(version.get())
				.withOfflineMode(true)
				.withUpdateKubeConfig(false)
				.withStartupTimeout(120_000)
				// serve on loopback only; also works where the machine has no default route
				.withApiServerFlag("--bind-address", "127.0.0.1")
				.withApiServerFlag("--advertise-address", "127.0.0.1")
				.withApiServerFlag("--endpoint-reconciler-type", "none")
				.build());
			server.start();
			Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "kube-apiserver-stop"));
			instance = new RealApiServer(server, Config.fromKubeconfig(server.getKubeConfigYaml()), version.get());
		}
		return instance;
	}

	static Path binaryRoot() {
		String dir = System.getenv("KUBEAPITEST_DIR");
		return (dir != null && !dir.isBlank()) ? Path.of(dir) : Path.of(System.getProperty("user.home"), ".kubeapitest");
	}

	static Optional<String> installedVersion(Path root) {
		Path k8s = root.resolve("k8s");
		if (!Files.isDirectory(k8s)) {
			return Optional.empty();
		}
		try (Stream<Path> dirs = Files.list(k8s)) {
			return dirs.filter((dir) -> Stream.of("kube-apiserver", "etcd", "kubectl")
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
		return Config.fromKubeconfig(this.server.getKubeConfigYaml());
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

}
