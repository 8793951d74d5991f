package dev.informer.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.fabric8.kubeapitest.Utils;
import io.fabric8.kubeapitest.binary.BinaryManager;
import io.fabric8.kubeapitest.kubeconfig.KubeConfig;
import io.fabric8.kubernetes.client.Config;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogMessage;
import org.springframework.util.FileSystemUtils;

import dev.informer.autoconfigure.KubernetesConnectionDetails;

/**
 * A real kube-apiserver with its etcd on loopback, from the binaries that
 * {@code scripts/envtest.sh} builds (under {@code ~/.kubeapitest}, or
 * {@code KUBEAPITEST_DIR}). {@code @InformerTest(server = REAL)} runs a test's informers
 * on the one of the JVM, started on first use and stopped when the JVM exits; a test that
 * needs other kube-apiserver flags, or a server of its own, starts one with
 * {@link #start(String...)} and closes it.
 * <p>
 * Both processes are waited for by the monotonic clock, never by the time of day.
 *
 * @since 0.1.0
 */
public final class RealApiServer implements KubernetesConnectionDetails, AutoCloseable {

	private static final String PLATFORM_SUFFIX = "-linux-amd64";

	private static final List<String> BINARIES = List.of("kube-apiserver", "etcd", "kubectl");

	private static final Duration STARTUP = Duration.ofMinutes(2);

	private static final Log logger = LogFactory.getLog(RealApiServer.class);

	private static @Nullable RealApiServer shared;

	private final String version;

	private final Path dir;

	private final LocalEtcd etcd;

	private final ControlPlaneProcess apiServer;

	private final String kubeconfig;

	private final StopAtExit stopAtExit = new StopAtExit("informer-test-kube-apiserver-stop", this::stop);

	private RealApiServer(String version, Path dir, LocalEtcd etcd, ControlPlaneProcess apiServer, String kubeconfig) {
		this.version = version;
		this.dir = dir;
		this.etcd = etcd;
		this.apiServer = apiServer;
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
	public static boolean isInstalled() {
		return installedVersion(binaryRoot()).isPresent();
	}

	/**
	 * Start a server of its own, on free loopback ports, and wait until it serves;
	 * {@link #close()} stops it, and so does the JVM's exit if a test does not.
	 * @param flags extra kube-apiserver flags, each as {@code --name=value}
	 * @return the started server
	 * @throws IllegalStateException if the binaries are not installed or it does not
	 * start within two minutes
	 */
	public static RealApiServer start(String... flags) {
		return start(binaryRoot(), flags);
	}

	static RealApiServer start(Path root, String... flags) {
		String version = installedVersion(root).orElseThrow(() -> new IllegalStateException(
				"@InformerTest(server = REAL) needs kube-apiserver, etcd and kubectl binaries under "
						+ root.resolve("k8s") + ", in a directory named <version>" + PLATFORM_SUFFIX
						+ ", and there are none. "
						+ "Build them with 'scripts/envtest.sh' from the informer-spring-boot-starter repository "
						+ "(it needs Go and takes about 10 minutes once; pass a directory or set KUBEAPITEST_DIR to "
						+ "put them elsewhere), or test against the mock server with "
						+ "@InformerTest(server = Server.MOCK) or informer.test.server=mock."));
		long started = System.nanoTime();
		ControlPlaneCommands commands = ControlPlaneCommands.of(root.resolve("k8s").resolve(version + PLATFORM_SUFFIX),
				(int) STARTUP.toMillis());
		BinaryManager binaries = new BinaryManager(commands.config());
		binaries.initAndDownloadIfRequired();
		commands.certificates().createCertificatesIfNeeded();
		Path dir = createDirectory();
		LocalEtcd etcd;
		try {
			etcd = LocalEtcd.start(commands, dir, STARTUP);
		}
		catch (RuntimeException ex) {
			FileSystemUtils.deleteRecursively(dir.toFile());
			throw ex;
		}
		int port = Utils.findFreePort();
		List<String> command = commands.apiServer(port, etcd.port());
		command.addAll(List.of(flags));
		ControlPlaneProcess apiServer = new ControlPlaneProcess("kube-apiserver", command,
				dir.resolve("kube-apiserver.log"));
		String kubeconfig = new KubeConfig(commands.certificates(), binaries).generateKubeConfigYaml(port);
		RealApiServer server = new RealApiServer(version, dir, etcd, apiServer, kubeconfig);
		try {
			apiServer.start();
			Readiness.awaitApiServer(apiServer, server.getConfig(), STARTUP);
		}
		catch (RuntimeException ex) {
			server.close();
			throw ex;
		}
		logger.info(LogMessage.format("Started kube-apiserver %s and etcd from %s in %d ms", version, root,
				Duration.ofNanos(System.nanoTime() - started).toMillis()));
		return server;
	}

	private static Path createDirectory() {
		try {
			return Files.createTempDirectory("kube-apiserver");
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
	 * Return the version of the kube-apiserver, for example {@code 1.37.2}.
	 * @return the version
	 */
	public String getVersion() {
		return this.version;
	}

	/**
	 * Return an admin kubeconfig (the client certificate is cluster-admin), for
	 * {@code kubectl} or another process.
	 * @return the kubeconfig as YAML
	 */
	public String getKubeConfigYaml() {
		return this.kubeconfig;
	}

	/**
	 * Return the admin configuration.
	 * @return a new configuration
	 */
	@Override
	public Config getConfig() {
		return Config.fromKubeconfig(this.kubeconfig);
	}

	/**
	 * Stop the kube-apiserver and etcd and delete etcd's data; the server of the JVM
	 * stops only with the JVM.
	 */
	@Override
	public void close() {
		if (this != shared) {
			this.stopAtExit.stopNow();
		}
	}

	private void stop() {
		this.apiServer.kill();
		this.etcd.process().kill();
		FileSystemUtils.deleteRecursively(this.dir.toFile());
	}

}
