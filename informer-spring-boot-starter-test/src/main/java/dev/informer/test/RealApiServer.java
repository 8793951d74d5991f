package dev.informer.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.client.Config;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogMessage;

import dev.informer.autoconfigure.KubernetesConnectionDetails;

/**
 * The real kube-apiserver and etcd of a JVM, started by {@code io.fabric8:kube-api-test}
 * in offline mode on the loopback interface on first use and stopped when the JVM exits,
 * so that every test class of a run shares one.
 */
final class RealApiServer implements KubernetesConnectionDetails {

	private static final String PLATFORM_SUFFIX = "-linux-amd64";

	private static final List<String> BINARIES = List.of("kube-apiserver", "etcd", "kubectl");

	private static final Log logger = LogFactory.getLog(RealApiServer.class);

	private static @Nullable RealApiServer shared;

	private final String kubeconfig;

	private RealApiServer(String kubeconfig) {
		this.kubeconfig = kubeconfig;
	}

	/**
	 * Return the server of this JVM, starting it on first use.
	 * @return the server
	 * @throws IllegalStateException if the binaries are not installed
	 */
	static synchronized RealApiServer get() {
		if (shared == null) {
			shared = start(binaryRoot());
		}
		return shared;
	}

	/**
	 * Return whether the binaries the server needs are installed.
	 * @return whether the server can start
	 */
	static boolean isInstalled() {
		return installedVersion(binaryRoot()).isPresent();
	}

	static RealApiServer start(Path root) {
		String version = installedVersion(root).orElseThrow(() -> new IllegalStateException(
				"@InformerTest(server = REAL) needs kube-apiserver, etcd and kubectl binaries under "
						+ root.resolve("k8s") + ", in a directory named <version>" + PLATFORM_SUFFIX
						+ ", and there are none. "
						+ "Build them with 'scripts/envtest.sh' from the informer-spring-boot-starter repository "
						+ "(it needs Go and takes about 10 minutes once; pass a directory or set KUBEAPITEST_DIR to "
						+ "put them elsewhere), or test against the mock server with "
						+ "@InformerTest(server = Server.MOCK) or informer.test.server=mock."));
		KubeAPIServer server = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig()
			.withTestDir(root.toString())
			.withApiServerVersion(version)
			.withOfflineMode(true)
			.withUpdateKubeConfig(false)
			.withStartupTimeout(120_000)
			// loopback only, so the tests also run where the machine has no default route
			.withApiServerFlag("--bind-address", "127.0.0.1")
			.withApiServerFlag("--advertise-address", "127.0.0.1")
			.withApiServerFlag("--endpoint-reconciler-type", "none")
			.build());
		long started = System.nanoTime();
		server.start();
		logger.info(LogMessage.format("Started kube-apiserver %s and etcd from %s in %d ms", version, root,
				Duration.ofNanos(System.nanoTime() - started).toMillis()));
		Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "informer-test-kube-apiserver-stop"));
		return new RealApiServer(server.getKubeConfigYaml());
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
			return dirs.filter((dir) -> dir.getFileName().toString().endsWith(PLATFORM_SUFFIX))
				.filter((dir) -> BINARIES.stream().allMatch((binary) -> Files.isExecutable(dir.resolve(binary))))
				.map((dir) -> dir.getFileName().toString())
				.map((name) -> name.substring(0, name.length() - PLATFORM_SUFFIX.length()))
				.max(Comparator.comparing(RealApiServer::sortKey));
		}
		catch (IOException ex) {
			return Optional.empty();
		}
	}

	private static String sortKey(String version) {
		StringBuilder key = new StringBuilder();
		for (String part : version.split("\\.")) {
			String digits = part.replaceAll("\\D.*", "");
			key.append(String.format("%09d", digits.isEmpty() ? 0 : Long.parseLong(digits)));
		}
		return key.toString();
	}

	/**
	 * Return the admin kubeconfig.
	 * @return the kubeconfig as YAML
	 */
	String getKubeConfigYaml() {
		return this.kubeconfig;
	}

	@Override
	public Config getConfig() {
		return Config.fromKubeconfig(this.kubeconfig);
	}

}
