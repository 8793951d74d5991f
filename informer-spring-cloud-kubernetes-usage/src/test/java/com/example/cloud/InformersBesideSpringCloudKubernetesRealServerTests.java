package com.example.cloud;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

import dev.informer.test.RealApiServer;

/**
 * The starter beside Spring Cloud Kubernetes on a real kube-apiserver and etcd
 * (the test starter's {@link RealApiServer}, from the binaries {@code scripts/envtest.sh}
 * builds), connected with the server's client certificate as a
 * kubeconfig gives it. Skipped without binaries, unless
 * {@code INFORMER_REQUIRE_APISERVER=true}.
 */
class InformersBesideSpringCloudKubernetesRealServerTests extends SpringCloudKubernetesScenario {

	private static RealApiServer server;

	private static KubernetesClient admin;

	@BeforeAll
	static void startServer() {
		requireBinaries();
		server = RealApiServer.start();
		admin = new KubernetesClientBuilder().withConfig(server.getConfig()).build();
	}

	@AfterAll
	static void stopServer() {
		if (admin != null) {
			admin.close();
		}
		if (server != null) {
			server.close();
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
	 * Skip without binaries, unless {@code INFORMER_REQUIRE_APISERVER=true}.
	 */
	private static void requireBinaries() {
		if (RealApiServer.isInstalled()) {
			return;
		}
		String message = "No kube-apiserver/etcd binaries under ~/.kubeapitest/k8s (or $KUBEAPITEST_DIR/k8s); "
				+ "build them with 'bash scripts/envtest.sh'";
		if (Boolean.parseBoolean(System.getenv("INFORMER_REQUIRE_APISERVER"))) {
			throw new IllegalStateException(message);
		}
		Assumptions.abort(message);
	}

}
