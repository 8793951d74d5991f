package com.example.cloud;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * The starter beside Spring Cloud Kubernetes on a real kube-apiserver and etcd
 * ({@code io.fabric8:kube-api-test}, offline, from the binaries
 * {@code scripts/envtest.sh} builds), connected with the server's client certificate as a
 * kubeconfig gives it. Skipped without binaries, unless
 * {@code INFORMER_REQUIRE_APISERVER=true}.
 */
class InformersBesideSpringCloudKubernetesRealServerTests extends SpringCloudKubernetesScenario {

	private static KubeAPIServer server;

	private static KubernetesClient admin;

	@BeforeAll
	static void startServer() {
		Path root = Optional.ofNullable(System.getenv("KUBEAPITEST_DIR"))
			.filter((dir) -> !dir.isBlank())
			.map(Path::of)
			.orElse(Path.of(System.getProperty("user.home"), ".kubeapitest"));
		String version = requireBinaries(root);
		server = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig()
			.withTestDir(root.toString())
			.withApiServerVersion(version)
			.withOfflineMode(true)
			.withUpdateKubeConfig(false)
			.withStartupTimeout(120_000)
			.withApiServerFlag("--bind-address", "127.0.0.1")
			.withApiServerFlag("--advertise-address", "127.0.0.1")
			.withApiServerFlag("--endpoint-reconciler-type", "none")
			.build());
		server.start();
		admin = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(server.getKubeConfigYaml())).build();
	}

	@AfterAll
	static void stopServer() {
		if (admin != null) {
			admin.close();
		}
		if (server != null) {
			server.stop();
		}
	}

	@Override
	KubernetesClient admin() {
		return admin;
	}

	@Override
	String kubeconfig() {
		return server.getKubeConfigYaml();
	}

	/**
	 * Return the version of the installed binaries; skip without them, unless
	 * {@code INFORMER_REQUIRE_APISERVER=true}.
	 */
	private static String requireBinaries(Path root) {
		String suffix = "-linux-amd64";
		try (Stream<Path> dirs = Files.list(root.resolve("k8s"))) {
			Optional<String> version = dirs
				.filter((dir) -> Stream.of("kube-apiserver", "etcd", "kubectl")
					.allMatch((binary) -> Files.isExecutable(dir.resolve(binary))))
				.map((dir) -> dir.getFileName().toString())
				.filter((name) -> name.endsWith(suffix))
				.map((name) -> name.substring(0, name.length() - suffix.length()))
				.findFirst();
			if (version.isPresent()) {
				return version.get();
			}
		}
		catch (IOException ex) {
			// no binaries
		}
		String message = "No kube-apiserver/etcd binaries under " + root.resolve("k8s")
				+ "; build them with 'bash scripts/envtest.sh'";
		if (Boolean.parseBoolean(System.getenv("INFORMER_REQUIRE_APISERVER"))) {
			throw new IllegalStateException(message);
		}
		Assumptions.abort(message);
		throw new IllegalStateException(message);
	}

}
