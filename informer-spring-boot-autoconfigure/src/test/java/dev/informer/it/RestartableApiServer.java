package dev.informer.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubeapitest.KubeAPITestException;
import io.fabric8.kubeapitest.KubeAPIServerConfig;
import io.fabric8.kubeapitest.Utils;
import io.fabric8.kubeapitest.binary.BinaryManager;
import io.fabric8.kubeapitest.cert.CertManager;
import io.fabric8.kubeapitest.kubeconfig.KubeConfig;
import io.fabric8.kubeapitest.process.EtcdProcess;
import io.fabric8.kubeapitest.process.ProcessReadinessChecker;

/**
 * A kube-apiserver whose process can be killed and started again on the same port against
 * the same etcd data, as a control-plane restart looks to clients.
 * <p>
 * kube-api-test's {@code KubeAPIServer} picks a new port for each start and, when its
 * kube-apiserver process exits, stops etcd and deletes its data; so this class reuses its
 * binaries, certificates and etcd process but runs the kube-apiserver process itself.
 */
final class RestartableApiServer {

	private static final String NAME = "Kube API Server";

	private final KubeAPIServerConfig config;

	private final BinaryManager binaries;

	private final CertManager certificates;

	private final EtcdProcess etcd;

	private final File log;

	private int etcdPort;

	private int port;

	private volatile Process process;

	RestartableApiServer(KubeAPIServerConfig config, Path log) {
		this.config = config;
		this.binaries = new BinaryManager(config);
		this.certificates = new CertManager(config.getKubeAPITestDir());
		this.etcd = new EtcdProcess(this.binaries, (process) -> {
			// etcd exits only when stopped; an unexpected exit fails the next request
		}, true, config.getStartupTimeout());
		this.log = log.toFile();
	}

	/**
	 * Start etcd and the kube-apiserver on a free port, and wait until it serves.
	 */
	synchronized void start() {
		this.binaries.initAndDownloadIfRequired();
		this.certificates.createCertificatesIfNeeded();
		this.etcdPort = startEtcd();
		this.port = Utils.findFreePort();
		startApiServer();
		new ProcessReadinessChecker().waitUntilDefaultNamespaceAvailable(this.port, this.binaries, this.certificates,
				this.config, this.config.getStartupTimeout());
	}

	/**
	 * Start etcd, once more if it does not come up: kube-api-test picks its ports as free
	 * ones and then starts etcd on them, so another process may take one in between (seen
	 * once in CI: "etcd did not start properly" within milliseconds).
	 */
	private int startEtcd() {
		try {
			return this.etcd.startEtcd();
		}
		catch (KubeAPITestException ex) {
			this.etcd.stopEtcd();
			this.etcd.cleanEtcdData();
			return this.etcd.startEtcd();
		}
	}

	/**
	 * Start the kube-apiserver process on the port and with the etcd of the first start,
	 * and wait until it answers {@code /readyz}.
	 */
	synchronized void startApiServer() {
		if (this.process != null && this.process.isAlive()) {
			throw new IllegalStateException("The kube-apiserver is running");
		}
		try {
			this.process = new ProcessBuilder(command()).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(this.log))
				.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start " + this.binaries.binaries().getApiServer(), ex);
		}
		new ProcessReadinessChecker().waitUntilReady(this.port, "readyz", NAME, true, this.config.getStartupTimeout());
	}

	/**
	 * Kill the kube-apiserver process (SIGKILL, as a crashed or fenced control plane),
	 * leaving etcd and its data alone.
	 */
	synchronized void killApiServer() {
		Process running = this.process;
		if (running == null) {
			return;
		}
		running.destroyForcibly();
		try {
			if (!running.waitFor(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("The kube-apiserver did not exit");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		this.process = null;
	}

	/**
	 * Whether the kube-apiserver process is running.
	 * @return whether running
	 */
	boolean isApiServerRunning() {
		Process running = this.process;
		return running != null && running.isAlive();
	}

	String kubeConfigYaml() {
		return new KubeConfig(this.certificates, this.binaries).generateKubeConfigYaml(this.port);
	}

	/**
	 * Stop both processes and delete etcd's data.
	 */
	synchronized void stop() {
		killApiServer();
		this.etcd.stopEtcd();
		this.etcd.cleanEtcdData();
	}

	// the flags kube-api-test gives its own kube-apiserver, with a fixed port
	private List<String> command() {
		String key = this.certificates.getAPIServerKeyPath();
		List<String> command = new ArrayList<>();
		command.add(this.binaries.binaries().getApiServer().getAbsolutePath());
		command.addAll(this.config.getApiServerFlags());
		command
			.addAll(List.of("--cert-dir", this.config.getKubeAPITestDir(), "--secure-port", String.valueOf(this.port),
					"--etcd-servers", "http://127.0.0.1:" + this.etcdPort, "--authorization-mode", "RBAC",
					"--service-account-issuer", "https://localhost", "--service-account-signing-key-file", key,
					"--service-account-key-file", key, "--disable-admission-plugins", "ServiceAccount",
					"--client-ca-file", this.certificates.getClientCertPath(), "--service-cluster-ip-range",
					"10.0.0.0/24", "--allow-privileged"));
		return command;
	}

}
