package dev.informer.sample;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.informer.test.RealApiServer;

/**
 * The embedded API server of demo mode, and a client for it: a real kube-apiserver with
 * etcd when their binaries exist, otherwise fabric8's mock API server. Closing it closes
 * the client and stops the server.
 */
abstract class DemoApiServer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(DemoApiServer.class);

	// the mock server's request log (java.util.logging, one line per request) would drown
	// the demo's lines; held here because java.util.logging keeps loggers only weakly
	private static final java.util.logging.Logger MOCK_SERVER_LOG = java.util.logging.Logger
		.getLogger("io.fabric8.mockwebserver");

	private final KubernetesClient client;

	private final AtomicBoolean closed = new AtomicBoolean();

	private final AtomicBoolean handedOver = new AtomicBoolean();

	private DemoApiServer(KubernetesClient client) {
		this.client = client;
	}

	/**
	 * Start a real kube-apiserver and etcd with the test starter's {@link RealApiServer},
	 * from binaries under {@code root} ({@code k8s/<version>-linux-amd64/}, as
	 * {@code scripts/envtest.sh} builds them: {@code KUBEAPITEST_DIR} or
	 * {@code ~/.kubeapitest}). Serves on loopback only.
	 */
	static DemoApiServer real(Path root, String version) {
		RealApiServer server = RealApiServer.start();
		Runnable stop = server::close;
		// etcd and kube-apiserver are child processes that would outlive the JVM; once an
		// application context owns this server, its close stops it (after the informers)
		DemoApiServer[] self = new DemoApiServer[1];
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			if (!self[0].handedOver.get()) {
				stop.run();
			}
		}, "demo-kube-apiserver-stop"));
		String kubeconfig = server.getKubeConfigYaml();
		KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig)).build();
		self[0] = new DemoApiServer(client) {

			@Override
			String kubeconfig() {
				return kubeconfig;
			}

			@Override
			String describe() {
				return "a REAL kube-apiserver " + version + " with etcd (binaries from " + root + ")";
			}

			@Override
			boolean isReal() {
				return true;
			}

			@Override
			void stopServer() {
				stop.run();
			}

		};
		return self[0];
	}

	/**
	 * Start fabric8's mock API server in CRUD mode.
	 */
	@SuppressWarnings("deprecation") // fabric8's mock server extension builds its Context
										// the same way
	static DemoApiServer mock() {
		MOCK_SERVER_LOG.setLevel(java.util.logging.Level.WARNING);
		KubernetesMockServer server = new KubernetesMockServer(new Context(Serialization.jsonMapper()),
				new MockWebServer(), new HashMap<>(), new KubernetesMixedDispatcher(new HashMap<>()), false);
		server.init(InetAddress.getLoopbackAddress(), 0);
		return new DemoApiServer(server.createClient()) {

			@Override
			String kubeconfig() {
				throw new UnsupportedOperationException("fabric8's mock API server has no kubeconfig");
			}

			@Override
			String describe() {
				return "fabric8's MOCK API server in CRUD mode (not a real kube-apiserver: selectors are "
						+ "evaluated only in part, no admission, no discovery)";
			}

			@Override
			boolean isReal() {
				return false;
			}

			@Override
			void stopServer() {
				try {
					server.destroy();
				}
				catch (IllegalStateException ex) {
					// Vert.x waits for WebSocket close answers
					// that never come; nothing to keep
					logger.debug("Mock API server stopped without all WebSocket close answers", ex);
				}
			}

		};
	}

	/**
	 * Return the version of the newest complete set of binaries (kube-apiserver, etcd,
	 * kubectl) under {@code root/k8s}, if any.
	 */
	static Optional<String> installedVersion(Path root) {
		Path k8s = root.resolve("k8s");
		if (!Files.isDirectory(k8s)) {
			return Optional.empty();
		}
		String suffix = "-linux-amd64";
		try (Stream<Path> dirs = Files.list(k8s)) {
			return dirs
				.filter((dir) -> Stream.of("kube-apiserver", "etcd", "kubectl")
					.allMatch((binary) -> Files.isExecutable(dir.resolve(binary))))
				.map((dir) -> dir.getFileName().toString())
				.filter((name) -> name.endsWith(suffix))
				.map((name) -> name.substring(0, name.length() - suffix.length()))
				.max(Comparator.comparing(DemoApiServer::versionKey));
		}
		catch (IOException ex) {
			return Optional.empty();
		}
	}

	/**
	 * Return where kube-api-test binaries live: {@code KUBEAPITEST_DIR} or
	 * {@code ~/.kubeapitest}.
	 */
	static Path binaryRoot() {
		String dir = System.getenv("KUBEAPITEST_DIR");
		return (dir != null && !dir.isBlank()) ? Path.of(dir)
				: Path.of(System.getProperty("user.home"), ".kubeapitest");
	}

	private static String versionKey(String version) {
		StringBuilder key = new StringBuilder();
		for (String part : version.split("\\.")) {
			key.append(String.format("%05d", Integer.parseInt("0" + part.replaceAll("\\D.*", ""))));
		}
		return key.toString();
	}

	/**
	 * Mark this server as owned by an application context, which closes it.
	 * @return this server
	 */
	DemoApiServer handOver() {
		this.handedOver.set(true);
		return this;
	}

	KubernetesClient client() {
		return this.client;
	}

	/**
	 * Return a kubeconfig that connects to this server, as a user's would.
	 */
	abstract String kubeconfig();

	/**
	 * Return what this server is, for the log.
	 */
	abstract String describe();

	/**
	 * Return whether this is a real kube-apiserver.
	 */
	abstract boolean isReal();

	abstract void stopServer();

	@Override
	public void close() {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		logger.info("Stopping the demo API server: " + describe());
		this.client.close();
		stopServer();
	}

}
