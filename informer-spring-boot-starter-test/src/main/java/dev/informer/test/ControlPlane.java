package dev.informer.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.fabric8.kubeapitest.Utils;
import io.fabric8.kubeapitest.binary.BinaryManager;
import io.fabric8.kubeapitest.kubeconfig.KubeConfig;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogMessage;
import org.springframework.util.FileSystemUtils;

import dev.informer.autoconfigure.KubernetesConnectionDetails;

/**
 * A whole Kubernetes control plane on loopback, from the binaries that
 * {@code scripts/envtest.sh} builds: etcd, two kube-apiservers on it behind a balancer,
 * kube-controller-manager (the deployment, replicaset, garbage-collector, namespace,
 * serviceaccount and node-lifecycle controllers), kube-scheduler, and kwok with its
 * stages simulating N nodes and their kubelets, so that a Deployment's Pods are created,
 * scheduled, run and deleted as in a cluster.
 * <p>
 * The API servers can be restarted one at a time ({@link #restartApiServer}, as in a
 * control-plane upgrade) or killed together ({@link #killApiServers}) and started again
 * on the same ports and etcd. {@link #close()} stops every process; a JVM shutdown hook
 * does if a test does not.
 * <p>
 * {@code @InformerTest(server = Server.CLUSTER)} runs a test's informers on the
 * {@link #shared() one of the JVM}; a test that restarts or kills API servers starts its
 * own with {@link #start(int)}. As a {@link KubernetesConnectionDetails} it gives an
 * admin configuration through the balancer.
 * <p>
 * {@code -Dinformer.control-plane.nice=N} starts the processes under {@code nice -n N};
 * {@code -Dinformer.control-plane.keep-logs=true} keeps their logs after
 * {@link #close()}.
 *
 * @since 0.1.0
 */
public final class ControlPlane implements KubernetesConnectionDetails, AutoCloseable {

	/** The nodes of the {@link #shared()} control plane, unless set otherwise. */
	public static final int DEFAULT_NODES = 10;

	private static final Log logger = LogFactory.getLog(ControlPlane.class);

	private static @Nullable ControlPlane shared;

	private static final Duration STARTUP = Duration.ofMinutes(2);

	/** How long an API server may take to shut down, as a static Pod's grace period. */
	private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(15);

	private final Path dir;

	private final ControlPlaneCommands commands;

	private final BinaryManager binaryManager;

	private @Nullable LocalEtcd etcd;

	private final List<ControlPlaneProcess> apiServers = new ArrayList<>();

	private final List<Integer> apiServerPorts = new ArrayList<>();

	private final List<ControlPlaneProcess> components = new ArrayList<>();

	private final int nodes;

	private final StopAtExit stopAtExit = new StopAtExit("control-plane-stop", this::stop);

	private @Nullable LoopbackBalancer balancer;

	private ControlPlane(ControlPlaneCommands commands, int nodes) throws IOException {
		this.commands = commands;
		this.nodes = nodes;
		this.dir = Files.createTempDirectory("control-plane");
		this.binaryManager = new BinaryManager(commands.config());
	}

	/**
	 * Return the control plane of this JVM, starting it on first use with
	 * {@code -Dinformer.test.cluster.nodes} nodes ({@value #DEFAULT_NODES} by default);
	 * it stops when the JVM exits.
	 * @return the control plane
	 * @throws IllegalStateException if the binaries are not installed or it does not
	 * start
	 */
	public static synchronized ControlPlane shared() {
		if (shared == null) {
			shared = start(Integer.getInteger("informer.test.cluster.nodes", DEFAULT_NODES));
		}
		return shared;
	}

	/**
	 * Return whether the binaries the control plane needs are installed.
	 * @return whether it can start
	 */
	public static boolean isInstalled() {
		return ControlPlaneCommands.directory().isPresent();
	}

	/**
	 * Start a control plane of its own with {@code nodes} kwok nodes and wait until a
	 * Deployment's Pod runs on one of them.
	 * @param nodes how many nodes
	 * @return the started control plane, to close after use
	 * @throws IllegalStateException if the binaries are not installed or it does not
	 * start
	 */
	public static ControlPlane start(int nodes) {
		Path root = RealApiServer.binaryRoot();
		ControlPlaneCommands commands = ControlPlaneCommands.find((int) STARTUP.toMillis())
			.orElseThrow(() -> new IllegalStateException("@InformerTest(server = CLUSTER) needs the binaries "
					+ String.join(", ", ControlPlaneCommands.BINARIES) + " and kwok's stages (kwok-stages/) under "
					+ root.resolve("k8s") + "/<version>-linux-amd64, and they are not all there. Build them with "
					+ "'scripts/envtest.sh' (without --core-only) from the informer-spring-boot-starter repository (it "
					+ "needs Go; about 10 minutes once), or use @InformerTest(server = Server.REAL) for a bare "
					+ "kube-apiserver."));
		ControlPlane controlPlane;
		try {
			controlPlane = new ControlPlane(commands, nodes);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		try {
			controlPlane.startAll();
			return controlPlane;
		}
		catch (RuntimeException | Error ex) {
			String logs = controlPlane.logTails();
			controlPlane.close();
			throw new IllegalStateException("The control plane did not start; the last lines of its logs:\n" + logs,
					ex);
		}
	}

	private void startAll() {
		long started = System.nanoTime();
		this.binaryManager.initAndDownloadIfRequired();
		this.commands.certificates().createCertificatesIfNeeded();
		LocalEtcd etcd = LocalEtcd.start(this.commands, this.dir, STARTUP);
		this.etcd = etcd;
		int etcdPort = etcd.port();
		List<InetSocketAddress> upstreams = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			int port = Utils.findFreePort();
			this.apiServerPorts.add(port);
			upstreams.add(new InetSocketAddress("127.0.0.1", port));
			this.apiServers.add(new ControlPlaneProcess("kube-apiserver-" + i, this.commands.apiServer(port, etcdPort),
					this.dir.resolve("kube-apiserver-" + i + ".log")));
		}
		try {
			this.balancer = new LoopbackBalancer(upstreams);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		startApiServers();
		Path kubeconfig = writeKubeconfig();
		this.components.add(process("kube-controller-manager", this.commands.controllerManager(kubeconfig)));
		this.components.add(process("kube-scheduler", this.commands.scheduler(kubeconfig)));
		this.components.add(process("kwok", this.commands.kwok(kubeconfig)));
		this.components.forEach(ControlPlaneProcess::start);
		try (KubernetesClient client = adminClient()) {
			KwokNodes.create(client, this.nodes);
			KwokNodes.awaitReady(client, this.nodes, STARTUP);
			KwokNodes.awaitRunningDeployment(client, STARTUP);
		}
		logger.info(LogMessage.format(
				"Started a control plane %s with %d kwok nodes in %d ms: %d processes, %d MiB resident, logs in %s",
				this.commands.version(), this.nodes, Duration.ofNanos(System.nanoTime() - started).toMillis(),
				processes().count(), residentBytes() >> 20, this.dir));
	}

	private ControlPlaneProcess process(String name, List<String> command) {
		return new ControlPlaneProcess(name, command, this.dir.resolve(name + ".log"));
	}

	private Path writeKubeconfig() {
		Path kubeconfig = this.dir.resolve("kubeconfig");
		try {
			Files.writeString(kubeconfig, kubeconfigYaml());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return kubeconfig;
	}

	/**
	 * Return an admin kubeconfig through the balancer, for {@code kubectl} or another
	 * process.
	 * @return the kubeconfig as YAML
	 */
	public String kubeconfigYaml() {
		return new KubeConfig(this.commands.certificates(), this.binaryManager)
			.generateKubeConfigYaml(balancer().getPort());
	}

	// an admin configuration for one API server, past the balancer
	private Config directConfig(int port) {
		return Config.fromKubeconfig(
				new KubeConfig(this.commands.certificates(), this.binaryManager).generateKubeConfigYaml(port));
	}

	private LoopbackBalancer balancer() {
		LoopbackBalancer balancer = this.balancer;
		if (balancer == null) {
			throw new IllegalStateException("The control plane has not started");
		}
		return balancer;
	}

	/**
	 * Return the admin configuration (cluster-admin), through the balancer.
	 * @return a new configuration
	 */
	@Override
	public Config getConfig() {
		return Config.fromKubeconfig(kubeconfigYaml());
	}

	/**
	 * Create an admin client, through the balancer.
	 * @return the client
	 */
	public KubernetesClient adminClient() {
		return new KubernetesClientBuilder().withConfig(getConfig()).build();
	}

	/**
	 * Return the resident memory of all processes (etcd, the API servers, the controller
	 * manager, the scheduler, kwok) on Linux, else 0.
	 * @return the sum in bytes
	 */
	public long residentBytes() {
		return processes().mapToLong(ControlPlaneProcess::residentBytes).sum();
	}

	/**
	 * Return the process ids of the running processes.
	 * @return the ids
	 */
	List<Long> processIds() {
		return processes().map(ControlPlaneProcess::pid).filter((pid) -> pid > 0).toList();
	}

	private Stream<ControlPlaneProcess> processes() {
		return Stream
			.of(Stream.ofNullable(this.etcd).map(LocalEtcd::process), this.apiServers.stream(),
					this.components.stream())
			.flatMap((processes) -> processes);
	}

	/**
	 * Take one API server out of the balancer's rotation, stop it gracefully (SIGTERM: it
	 * ends its watches and drains its requests; SIGKILL after 15 s), start it again on
	 * the same port, and put it back in rotation once it is ready, while the other
	 * serves.
	 * @param index 0 or 1
	 */
	public synchronized void restartApiServer(int index) {
		long started = System.nanoTime();
		balancer().setInRotation(index, false);
		boolean graceful = this.apiServers.get(index).stop(SHUTDOWN_GRACE);
		long stopped = System.nanoTime();
		startApiServer(index);
		logger.info(LogMessage.format("kube-apiserver-%d %s in %d ms, ready again %d ms later", index,
				graceful ? "shut down" : "killed after its grace period", (stopped - started) / 1_000_000,
				(System.nanoTime() - stopped) / 1_000_000));
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
		for (int i = 0; i < this.apiServers.size(); i++) {
			balancer().setInRotation(i, false);
			this.apiServers.get(i).kill();
		}
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
		Readiness.awaitApiServer(this.apiServers.get(index), directConfig(this.apiServerPorts.get(index)), STARTUP);
		balancer().setInRotation(index, true);
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
	 * Return the number of kwok nodes.
	 * @return the nodes
	 */
	public int nodes() {
		return this.nodes;
	}

	/**
	 * Stop every process and delete the data and logs. The {@link #shared()} control
	 * plane stops with the JVM.
	 */
	@Override
	public void close() {
		if (this != shared) {
			this.stopAtExit.stopNow();
		}
	}

	private synchronized void stop() {
		for (ControlPlaneProcess component : this.components) {
			component.kill();
		}
		for (ControlPlaneProcess apiServer : this.apiServers) {
			apiServer.kill();
		}
		if (this.balancer != null) {
			this.balancer.close();
		}
		if (this.etcd != null) {
			this.etcd.process().kill();
		}
		if (!Boolean.getBoolean("informer.control-plane.keep-logs")) {
			FileSystemUtils.deleteRecursively(this.dir.toFile());
		}
	}

}
