package dev.informer.it;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.fabric8.kubeapitest.KubeAPIServerConfig;
import io.fabric8.kubeapitest.Utils;
import io.fabric8.kubeapitest.binary.BinaryManager;
import io.fabric8.kubeapitest.cert.CertManager;
import io.fabric8.kubeapitest.kubeconfig.KubeConfig;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.jspecify.annotations.Nullable;

import org.springframework.util.FileSystemUtils;

/**
 * etcd and a kube-apiserver on it, from kube-api-test's binaries and certificates, run as
 * processes of this class's own: the kube-apiserver can be killed and started again on
 * the same port against the same etcd data, as a control-plane restart looks to clients.
 * <p>
 * kube-api-test's {@code KubeAPIServer} is not used to run them: it picks a new port for
 * each start and, when its kube-apiserver exits, stops etcd and deletes its data; and its
 * start-up wait (7.6.1) compares {@code LocalTime} values, so in the last two minutes
 * before local midnight every start fails at the first poll (CI met it at 23:58 UTC).
 * Here every wait is by the monotonic clock, and stops as soon as the process has exited.
 */
final class ApiServerProcesses {

	private static final Duration POLL = Duration.ofMillis(100);

	private final KubeAPIServerConfig config;

	private final Duration startup;

	private final BinaryManager binaries;

	private final CertManager certificates;

	private final Path dir;

	private final File log;

	private @Nullable Process etcd;

	private int etcdPort;

	private int port;

	private volatile @Nullable Process apiServer;

	ApiServerProcesses(KubeAPIServerConfig config, Path dir) {
		this.config = config;
		this.startup = Duration.ofMillis(config.getStartupTimeout());
		this.binaries = new BinaryManager(config);
		this.certificates = new CertManager(config.getKubeAPITestDir());
		this.dir = dir;
		this.log = dir.resolve("kube-apiserver.log").toFile();
	}

	/**
	 * Start etcd and the kube-apiserver on free ports, and wait until it serves.
	 */
	synchronized void start() {
		this.binaries.initAndDownloadIfRequired();
		this.certificates.createCertificatesIfNeeded();
		try {
			startEtcd();
		}
		catch (RuntimeException ex) {
			// another process may take a port between picking it and etcd binding it
			stopEtcd();
			startEtcd();
		}
		this.port = Utils.findFreePort();
		startApiServer();
	}

	private void startEtcd() {
		this.etcdPort = Utils.findFreePort();
		String client = "http://127.0.0.1:" + this.etcdPort;
		String peer = "http://127.0.0.1:" + Utils.findFreePort();
		Path data = this.dir.resolve("etcd");
		FileSystemUtils.deleteRecursively(data.toFile());
		Process process = start(List.of(this.binaries.binaries().getEtcd().getAbsolutePath(), "--data-dir=" + data,
				"--listen-client-urls=" + client, "--advertise-client-urls=" + client, "--listen-peer-urls=" + peer,
				"--initial-advertise-peer-urls=" + peer, "--initial-cluster=default=" + peer),
				this.dir.resolve("etcd.log").toFile());
		this.etcd = process;
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
		HttpRequest health = HttpRequest.newBuilder(URI.create(client + "/health"))
			.timeout(Duration.ofSeconds(2))
			.build();
		await("etcd", process, () -> {
			try {
				return http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
			}
			catch (IOException ex) {
				return false;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		});
	}

	/**
	 * Start the kube-apiserver process on the port and with the etcd of the first start,
	 * and wait until it answers {@code /readyz} and its {@code default} namespace exists.
	 */
	synchronized void startApiServer() {
		Process running = this.apiServer;
		if (running != null && running.isAlive()) {
			throw new IllegalStateException("The kube-apiserver is running");
		}
		Process process = start(command(), this.log);
		this.apiServer = process;
		Config probe = new ConfigBuilder(Config.fromKubeconfig(kubeConfigYaml())).withRequestRetryBackoffLimit(0)
			.withConnectionTimeout(1000)
			.withRequestTimeout(5000)
			.build();
		try (KubernetesClient client = new KubernetesClientBuilder().withConfig(probe).build()) {
			await("kube-apiserver", process, () -> {
				try {
					return "ok".equals(client.raw("/readyz")) && client.namespaces().withName("default").get() != null;
				}
				catch (RuntimeException ex) {
					return false;
				}
			});
		}
	}

	private static Process start(List<String> command, File log) {
		try {
			return new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start " + command.get(0), ex);
		}
	}

	private void await(String name, Process process, BooleanSupplier ready) {
		long deadline = System.nanoTime() + this.startup.toNanos();
		while (!ready.getAsBoolean()) {
			if (!process.isAlive()) {
				throw new IllegalStateException(name + " exited with " + process.exitValue()
						+ " before it was ready; its log is in " + this.dir);
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(
						name + " was not ready within " + this.startup + "; its log is in " + this.dir);
			}
			try {
				Thread.sleep(POLL.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for " + name, ex);
			}
		}
	}

	/**
	 * Kill the kube-apiserver process (SIGKILL, as a crashed or fenced control plane),
	 * leaving etcd and its data alone.
	 */
	synchronized void killApiServer() {
		Process running = this.apiServer;
		if (running == null) {
			return;
		}
		kill(running);
		this.apiServer = null;
	}

	private static void kill(Process process) {
		process.destroyForcibly();
		try {
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("Process " + process.pid() + " did not exit after SIGKILL");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private void stopEtcd() {
		Process running = this.etcd;
		if (running != null) {
			kill(running);
			this.etcd = null;
		}
	}

	/**
	 * Whether the kube-apiserver process is running.
	 * @return whether running
	 */
	boolean isApiServerRunning() {
		Process running = this.apiServer;
		return running != null && running.isAlive();
	}

	String kubeConfigYaml() {
		return new KubeConfig(this.certificates, this.binaries).generateKubeConfigYaml(this.port);
	}

	/**
	 * Stop both processes; the caller deletes the directory with etcd's data.
	 */
	synchronized void stop() {
		killApiServer();
		stopEtcd();
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
