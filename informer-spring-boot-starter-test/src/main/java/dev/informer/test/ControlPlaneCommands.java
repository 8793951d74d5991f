package dev.informer.test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.fabric8.kubeapitest.KubeAPIServerConfig;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubeapitest.cert.CertManager;

/**
 * What a {@link ControlPlane} runs: the binaries that {@code scripts/envtest.sh} builds
 * into one directory, and the command line of each process.
 */
final class ControlPlaneCommands {

	static final List<String> BINARIES = List.of("kube-apiserver", "etcd", "kube-controller-manager", "kube-scheduler",
			"kwok");

	private static final String CONTROLLERS = String.join(",", "deployment-controller", "replicaset-controller",
			"garbage-collector-controller", "namespace-controller", "serviceaccount-controller",
			"node-lifecycle-controller");

	/** kwok's stages: nodes become Ready and renew their Leases; Pods run at once. */
	private static final List<String> STAGES = List.of("node/fast/node-initialize.yaml",
			"node/heartbeat-with-lease/node-heartbeat-with-lease.yaml", "pod/fast/pod-ready.yaml",
			"pod/fast/pod-complete.yaml", "pod/fast/pod-delete.yaml");

	private static final String PLATFORM_SUFFIX = "-linux-amd64";

	private final Path binaries;

	private final KubeAPIServerConfig config;

	private final CertManager certificates;

	private ControlPlaneCommands(Path binaries, int startupMillis) {
		this.binaries = binaries;
		String version = binaries.getFileName().toString().replace(PLATFORM_SUFFIX, "");
		this.config = KubeAPIServerConfigBuilder.anAPIServerConfig()
			.withTestDir(RealApiServer.binaryRoot().toString())
			.withApiServerVersion(version)
			.withOfflineMode(true)
			.withUpdateKubeConfig(false)
			.withStartupTimeout(startupMillis)
			.withApiServerFlag("--bind-address", "127.0.0.1")
			.withApiServerFlag("--advertise-address", "127.0.0.1")
			.withApiServerFlag("--endpoint-reconciler-type", "none")
			// on SIGTERM, end the watches within this time rather than at the request
			// timeout (60 s), as a graceful upgrade does
			.withApiServerFlag("--shutdown-watch-termination-grace-period", "5s")
			.build();
		this.certificates = new CertManager(this.config.getKubeAPITestDir());
	}

	/**
	 * Return the commands over the newest complete binary directory, if there is one.
	 */
	static Optional<ControlPlaneCommands> find(int startupMillis) {
		return directory().map((dir) -> new ControlPlaneCommands(dir, startupMillis));
	}

	/**
	 * Return the commands over one binary directory, which need hold only what the
	 * processes to be started need.
	 */
	static ControlPlaneCommands of(Path binaries, int startupMillis) {
		return new ControlPlaneCommands(binaries, startupMillis);
	}

	static Optional<Path> directory() {
		Path root = RealApiServer.binaryRoot();
		return RealApiServer.installedVersion(root)
			.map((version) -> root.resolve("k8s").resolve(version + PLATFORM_SUFFIX))
			.filter(ControlPlaneCommands::isComplete);
	}

	private static boolean isComplete(Path binaries) {
		return BINARIES.stream().allMatch((binary) -> Files.isExecutable(binaries.resolve(binary)))
				&& STAGES.stream().allMatch((stage) -> Files.isRegularFile(binaries.resolve("kwok-stages/" + stage)));
	}

	KubeAPIServerConfig config() {
		return this.config;
	}

	CertManager certificates() {
		return this.certificates;
	}

	String version() {
		return this.config.getApiServerVersion().orElse("");
	}

	List<String> etcd(Path dataDir, int clientPort, int peerPort) {
		String client = "http://127.0.0.1:" + clientPort;
		String peer = "http://127.0.0.1:" + peerPort;
		return command("etcd", "--data-dir=" + dataDir, "--listen-client-urls=" + client,
				"--advertise-client-urls=" + client, "--listen-peer-urls=" + peer,
				"--initial-advertise-peer-urls=" + peer, "--initial-cluster=default=" + peer,
				// a test's data need not survive a power cut
				"--unsafe-no-fsync=true");
	}

	/**
	 * The flags kube-api-test gives its own kube-apiserver, with fixed ports; the API
	 * server's key also signs service-account tokens.
	 */
	List<String> apiServer(int port, int etcdPort) {
		String key = this.certificates.getAPIServerKeyPath();
		List<String> command = command("kube-apiserver");
		command.addAll(this.config.getApiServerFlags());
		command.addAll(List.of("--cert-dir", this.config.getKubeAPITestDir(), "--secure-port", String.valueOf(port),
				"--etcd-servers", "http://127.0.0.1:" + etcdPort, "--authorization-mode", "RBAC",
				"--service-account-issuer", "https://localhost", "--service-account-signing-key-file", key,
				"--service-account-key-file", key, "--disable-admission-plugins", "ServiceAccount", "--client-ca-file",
				this.certificates.getClientCertPath(), "--service-cluster-ip-range", "10.0.0.0/24",
				"--allow-privileged"));
		return command;
	}

	List<String> controllerManager(Path kubeconfig) {
		return command("kube-controller-manager", "--kubeconfig=" + kubeconfig, "--controllers=" + CONTROLLERS,
				"--leader-elect=false", "--secure-port=0", "--use-service-account-credentials=false",
				"--concurrent-deployment-syncs=5", "--concurrent-replicaset-syncs=5", "--concurrent-gc-syncs=5",
				"--kube-api-qps=200", "--kube-api-burst=300");
	}

	List<String> scheduler(Path kubeconfig) {
		return command("kube-scheduler", "--kubeconfig=" + kubeconfig, "--leader-elect=false", "--secure-port=0",
				"--kube-api-qps=200", "--kube-api-burst=300");
	}

	List<String> kwok(Path kubeconfig) {
		List<String> command = command("kwok", "--kubeconfig=" + kubeconfig, "--manage-all-nodes=false",
				"--manage-nodes-with-annotation-selector=" + KwokNodes.ANNOTATION + "=fake", "--cidr=10.0.0.1/16",
				"--node-ip=127.0.0.1", "--node-lease-duration-seconds=40");
		STAGES.forEach((stage) -> command.add("--config=" + this.binaries.resolve("kwok-stages").resolve(stage)));
		return command;
	}

	private List<String> command(String binary, String... flags) {
		List<String> command = new ArrayList<>();
		command.add(this.binaries.resolve(binary).toString());
		command.addAll(List.of(flags));
		return command;
	}

}
