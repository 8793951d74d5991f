package dev.informer.test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.BooleanSupplier;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * Waits until a process of the control plane serves, by the monotonic clock, and stops
 * waiting as soon as the process has exited.
 * <p>
 * kube-api-test's own wait ({@code ProcessReadinessChecker}, 7.6.1) compares
 * {@code LocalTime} values: in the last start-up timeout before local midnight its
 * deadline wraps to the small hours and every start fails at the first poll ("etcd did
 * not start properly"), which CI met at 23:58 UTC. Nothing here reads the time of day.
 */
final class Readiness {

	private static final Duration POLL = Duration.ofMillis(100);

	private Readiness() {
	}

	/**
	 * Wait until etcd answers {@code /health} with 200.
	 * @param etcd the process
	 * @param port its client port
	 * @param timeout how long it may take
	 */
	static void awaitEtcd(ControlPlaneProcess etcd, int port, Duration timeout) {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
		HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
			.timeout(Duration.ofSeconds(2))
			.build();
		await(etcd, timeout, () -> {
			try {
				return http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
			}
			catch (IOException ex) {
				return false;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for " + etcd.name(), ex);
			}
		});
	}

	/**
	 * Wait until a kube-apiserver answers {@code /readyz} with {@code ok} and its
	 * {@code default} namespace exists (its bootstrap controller creates it after
	 * start-up).
	 * @param apiServer the process
	 * @param config an admin configuration for this API server alone
	 * @param timeout how long it may take
	 */
	static void awaitApiServer(ControlPlaneProcess apiServer, Config config, Duration timeout) {
		Config probe = new ConfigBuilder(config).withRequestRetryBackoffLimit(0)
			.withConnectionTimeout(1000)
			.withRequestTimeout(5000)
			.build();
		try (KubernetesClient client = new KubernetesClientBuilder().withConfig(probe).build()) {
			await(apiServer, timeout, () -> {
				try {
					return "ok".equals(client.raw("/readyz")) && client.namespaces().withName("default").get() != null;
				}
				catch (RuntimeException ex) {
					return false;
				}
			});
		}
	}

	private static void await(ControlPlaneProcess process, Duration timeout, BooleanSupplier ready) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!ready.getAsBoolean()) {
			if (!process.isRunning()) {
				throw new IllegalStateException(process.name()
						+ " exited before it was ready; the last lines of its log:\n" + process.tail(15));
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(process.name() + " was not ready within " + timeout
						+ "; the last lines of its log:\n" + process.tail(15));
			}
			try {
				Thread.sleep(POLL.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for " + process.name(), ex);
			}
		}
	}

}
