package dev.informer.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.fabric8.kubeapitest.KubeAPIServerConfig;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubeapitest.Utils;
import io.fabric8.kubeapitest.binary.BinaryManager;
import io.fabric8.kubeapitest.cert.CertManager;
import io.fabric8.kubeapitest.kubeconfig.KubeConfig;
import io.fabric8.kubeapitest.process.ProcessReadinessChecker;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Assumptions;

import org.springframework.util.FileSystemUtils;

/**
 * A whole Kubernetes control plane on loopback, from the binaries that
 * {@code scripts/envtest.sh} builds: etcd, two kube-apiservers on it behind a
 * {@link TcpProxy} balancer, kube-controller-manager (the deployment, replicaset,
 * garbage-collector, namespace, serviceaccount and node-lifecycle controllers),
 * kube-scheduler, and kwok with its stages simulating N nodes and their kubelets, so that
 * a Deployment's Pods are created, scheduled, run and deleted as in a cluster.
 * <p>
 * The API servers can be restarted one at a time ({@link #restartApiServer}, as in a
 * control-plane upgrade) or killed together ({@link #killApiServers}) and started again
 * on the same ports and etcd. {@link #close()} stops every process; a JVM shutdown hook
 * does if a test does not.
 * <p>
 * Without binaries the tests are skipped with instructions, unless
 * {@code INFORMER_REQUIRE_APISERVER=true} (set by CI), which makes absence a failure.
 */
public final class ControlPlane implements AutoCloseable {

	private static final String REQUIRE = "INFORMER_REQUIRE_APISERVER";

	private static final List<String> BINARIES = List.of("kube-apiserver", "etcd", "kube-controller-manager",
			"kube-scheduler", "kwok");

	private static final String CONTROLLERS = String.join(",", "deployment-controller", "replicaset-controller",
			"garbage-collector-controller", "namespace-controller", "serviceaccount-controller",
			"node-lifecycle-controller");

	/** kwok's stages: nodes become Ready and renew their Leases; Pods run at once. */
	private static final List<String> STAGES = List.of("node/fast/node-initialize.yaml",
			"node/heartbeat-with-lease/node-heartbeat-with-lease.yaml", "pod/fast/pod-ready.yaml",
			"pod/fast/pod-complete.yaml", "pod/fast/pod-delete.yaml");

	private static final Duration STARTUP = Duration.ofMinutes(2);

	/** How long an API server may take to shut down, as a static Pod's grace period. */
	private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(15);

	private final Path dir;

	private final Path binaries;

	private final KubeAPIServerConfig config;

	private final BinaryManager binaryManager;

	private final CertManager certificates;

	private ControlPlaneProcess etcd;

	private final List<ControlPlaneProcess> apiServers = new ArrayList<>();

	private final List<Integer> apiServerPorts = new ArrayList<>();

	private final List<ControlPlaneProcess> components = new ArrayList<>();

	private final int nodes;

	private final Thread shutdownHook = new Thread(this::stop, "control-plane-stop");

	private TcpProxy balancer;

	private volatile boolean stopped;

	private ControlPlane(Path binaries, String version, int nodes) throws IOException {
		this.binaries = binaries;
		this.nodes = nodes;
		this.dir = Files.createTempDirectory("control-plane");
		this.config = KubeAPIServerConfigBuilder.anAPIServerConfig()
			.withTestDir(RealApiServer.binaryRoot().toString())
			.withApiServerVersion(version)
			.withOfflineMode(true)
			.withUpdateKubeConfig(false)
			.withStartupTimeout((int) STARTUP.toMillis())
			.withApiServerFlag("--bind-address", "127.0.0.1")
			.withApiServerFlag("--advertise-address", "127.0.0.1")
			.withApiServerFlag("--endpoint-reconciler-type", "none")
			// on SIGTERM, end the watches within this time rather than at the request
			// timeout (60 s), as a graceful upgrade does
			.withApiServerFlag("--shutdown-watch-termination-grace-period", "5s")
			.build();
		this.binaryManager = new BinaryManager(this.config);
		this.certificates = new CertManager(this.config.getKubeAPITestDir());
	}

	/**
	 * Start a control plane with {@code nodes} kwok nodes and wait until a Deployment's
	 * Pod runs on one of them; skip or fail when there are no binaries.
	 * @param nodes how many nodes
	 * @return the started control plane, to close after use
	 */
	public static ControlPlane start(int nodes) {
		Path root = RealApiServer.binaryRoot();
		Optional<String> version = RealApiServer.installedVersion(root);
		Optional<Path> binaries = version.map((v) -> root.resolve("k8s").resolve(v + "-linux-amd64"))
			.filter(ControlPlane::isComplete);
		if (binaries.isEmpty()) {
			String message = "No control-plane binaries (" + String.join(", ", BINARIES) + ", kwok-stages) under "
					+ root.resolve("k8s") + "; build them with 'bash scripts/envtest.sh' (about 15 minutes the "
					+ "first time)";
			if (Boolean.parseBoolean(System.getenv(REQUIRE))) {
				throw new IllegalStateException(message + " (" + REQUIRE + "=true)");
			}
			Assumptions.abort(message);
		}
		ControlPlane controlPlane;
		try {
			controlPlane = new ControlPlane(binaries.get(), version.get(), nodes);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Runtime.getRuntime().addShutdownHook(controlPlane.shutdownHook);
		try {
			controlPlane.startAll();
			return controlPlane;
		}
		catch (RuntimeException | Error ex) {
			String logs = controlPlane.logTails();
			controlPlane.close();
			throw new IllegalStateException("The control plane did not start\n" + logs, ex);
		}
	}

	private static boolean isComplete(Path binaries) {
		return BINARIES.stream().allMatch((binary) -> Files.isExecutable(binaries.resolve(binary)))
				&& STAGES.stream().allMatch((stage) -> Files.isRegularFile(binaries.resolve("kwok-stages/" + stage)));
	}

	private void startAll() {
		long started = System.nanoTime();
		this.binaryManager.initAndDownloadIfRequired();
		this.certificates.createCertificatesIfNeeded();
		int etcdPort = startEtcd();
		List<InetSocketAddress> upstreams = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			int port = Utils.findFreePort();
			this.apiServerPorts.add(port);
			upstreams.add(new InetSocketAddress("127.0.0.1", port));
			this.apiServers.add(
					new ControlPlaneProcess("kube-apiserver-" + i,
							RestartableApiServer.command(this.binaries.resolve("kube-apiserver").toFile(), this.config,
									this.certificates, port, etcdPort),
							this.dir.resolve("kube-apiserver-" + i + ".log")));
		}
		try {
			this.balancer = new TcpProxy(upstreams);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		startApiServers();
		Path kubeconfig = writeKubeconfig();
		this.components
			.add(process("kube-controller-manager", "--kubeconfig=" + kubeconfig, "--controllers=" + CONTROLLERS,
					"--leader-elect=false", "--secure-port=0", "--use-service-account-credentials=false",
					"--concurrent-deployment-syncs=5", "--concurrent-replicaset-syncs=5", "--concurrent-gc-syncs=5",
					"--kube-api-qps=200", "--kube-api-burst=300"));
		this.components.add(process("kube-scheduler", "--kubeconfig=" + kubeconfig, "--leader-elect=false",
				"--secure-port=0", "--kube-api-qps=200", "--kube-api-burst=300"));
		List<String> kwok = new ArrayList<>(List.of("--kubeconfig=" + kubeconfig, "--manage-all-nodes=false",
				"--manage-nodes-with-annotation-selector=" + KwokNodes.ANNOTATION + "=fake", "--cidr=10.0.0.1/16",
				"--node-ip=127.0.0.1", "--node-lease-duration-seconds=40"));
		STAGES.forEach((stage) -> kwok.add("--config=" + this.binaries.resolve("kwok-stages").resolve(stage)));
		this.components.add(process("kwok", kwok.toArray(String[]::new)));
		this.components.forEach(ControlPlaneProcess::start);
		try (KubernetesClient client = adminClient()) {
			KwokNodes.create(client, this.nodes);
			KwokNodes.awaitReady(client, this.nodes, STARTUP);
			KwokNodes.awaitRunningDeployment(client, STARTUP);
		}
		System.out.printf("ControlPlane: started in %d ms with %d nodes; %d processes, RSS %d MiB; logs in %s%n",
				Duration.ofNanos(System.nanoTime() - started).toMillis(), this.nodes, processes().count(), residentBytes() >> 20, this.dir);
	}

	/**
	 * Start etcd on free ports, once more if it does not come up (another process may
	 * take a port between picking and binding it).
	 */
	private int startEtcd() {
		try {
			return startEtcdOnce();
		}
		catch (RuntimeException ex) {
			this.etcd.kill();
			return startEtcdOnce();
		}
	}

	private int startEtcdOnce() {
		int client = Utils.findFreePort();
		String peer = "http://127.0.0.1:" + Utils.findFreePort();
		String clientUrl = "http://127.0.0.1:" + client;
		FileSystemUtils.deleteRecursively(this.dir.resolve("etcd").toFile());
		this.etcd = process("etcd", "--data-dir=" + this.dir.resolve("etcd"), "--listen-client-urls=" + clientUrl,
				"--advertise-client-urls=" + clientUrl, "--listen-peer-urls=" + peer,
				"--initial-advertise-peer-urls=" + peer, "--initial-cluster=default=" + peer,
				// a test's data need not survive a power cut
				"--unsafe-no-fsync=true");
		this.etcd.start();
		new ProcessReadinessChecker().waitUntilReady(client, "health", "etcd", false, (int) STARTUP.toMillis());
		return client;
	}

	private ControlPlaneProcess process(String name, String... flags) {
		List<String> command = new ArrayList<>();
		command.add(this.binaries.resolve(name).toString());
		command.addAll(List.of(flags));
		return new ControlPlaneProcess(name, command, this.dir.resolve(name + ".log"));
	}

	private Path writeKubeconfig() {
		Path kubeconfig = this.dir.resolve("kubeconfig");
		String yaml = new KubeConfig(this.certificates, this.binaryManager)
			.generateKubeConfigYaml(this.balancer.getPort());
		try {
			Files.writeString(kubeconfig, yaml);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return kubeconfig;
	}

	/**
	 * Return the admin configuration (cluster-admin), through the balancer.
	 * @return a new configuration
	 */
	public Config adminConfig() {
		return Config.fromKubeconfig(
				new KubeConfig(this.certificates, this.binaryManager).generateKubeConfigYaml(this.balancer.getPort()));
	}

	/**
	 * Create an admin client, through the balancer.
	 * @return the client
	 */
	public KubernetesClient adminClient() {
		return new KubernetesClientBuilder().withConfig(adminConfig()).build();
	}

	/**
	 * Return the resident memory of all processes (etcd, the API servers, the controller
	 * manager, the scheduler, kwok) on Linux, else 0.
	 * @return the sum in bytes
	 */
	public long residentBytes() {
		return processes().mapToLong(ControlPlaneProcess::residentBytes).sum();
	}

	private Stream<ControlPlaneProcess> processes() {
		return Stream.of(Stream.ofNullable(this.etcd), this.apiServers.stream(), this.components.stream())
			.flatMap((processes) -> processes);
	}

	/**
	 * Stop one API server gracefully (SIGTERM: it closes its watches and drains its
	 * requests), start it again on the same port and wait until it is ready, while the
	 * other serves behind the balancer.
	 * @param index 0 or 1
	 */
	public synchronized void restartApiServer(int index) {
		long started = System.nanoTime();
		boolean graceful = this.apiServers.get(index).stop(SHUTDOWN_GRACE);
		long stopped = System.nanoTime();
		startApiServer(index);
		System.out.printf("ControlPlane: kube-apiserver-%d %s in %d ms, ready again %d ms later%n", index,
				graceful ? "shut down" : "killed after its grace period", (stopped - started) / 1_000_000,
				(System.nanoTime() - stopped) / 1_000_000);
	}

	/**
	 * Restart the API servers one after the other, as a control-plane upgrade does.
	 */
	public void rollApiServers() {
		for (int i = 0; i < this.apiServers.size(); i++) {
			restartApiServer(i);
		}
	}

	/**
	 * Kill every API server (SIGKILL); etcd keeps its data, the controllers, the
	 * scheduler and kwok keep running and retry. Clients get connection reset until
	 * {@link #startApiServers()}.
	 */
	public synchronized void killApiServers() {
		this.apiServers.forEach(ControlPlaneProcess::kill);
	}

	/**
	 * Start every API server that is not running, and wait until all are ready.
	 */
	public synchronized void startApiServers() {
		for (int i = 0; i < this.apiServers.size(); i++) {
			if (!this.apiServers.get(i).isRunning()) {
				startApiServer(i);
			}
		}
	}

	private void startApiServer(int index) {
		this.apiServers.get(index).start();
		new ProcessReadinessChecker().waitUntilReady(this.apiServerPorts.get(index), "readyz",
				"kube-apiserver-" + index, true, (int) STARTUP.toMillis());
	}

	private String logTails() {
		StringBuilder tails = new StringBuilder();
		processes().forEach((process) -> tails.append("--- ")
			.append(process.name())
			.append(" ---\n")
			.append(process.tail(15))
			.append('\n'));
		return tails.toString();
	}

	/**
	 * Stop every process and delete the data and logs.
	 */
	@Override
	public void close() {
		stop();
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// the JVM is shutting down: the hook runs or has run
		}
	}

	private synchronized void stop() {
		if (this.stopped) {
			return;
		}
		this.stopped = true;
		for (ControlPlaneProcess component : this.components) {
			component.kill();
		}
		for (ControlPlaneProcess apiServer : this.apiServers) {
			apiServer.kill();
		}
		if (this.balancer != null) {
			try {
				this.balancer.close();
			}
			catch (IOException ex) {
				// closing sockets
			}
		}
		if (this.etcd != null) {
			this.etcd.kill();
		}
		if (!Boolean.getBoolean("informer.control-plane.keep-logs")) {
			FileSystemUtils.deleteRecursively(this.dir.toFile());
		}
	}

}
