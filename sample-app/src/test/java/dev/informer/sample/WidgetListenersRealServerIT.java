package dev.informer.sample;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

import dev.informer.test.InformerTest;
import dev.informer.test.InformerTest.Server;

/**
 * The sample's listeners on a real kube-apiserver and etcd. Skipped without their
 * binaries, unless {@code INFORMER_REQUIRE_APISERVER=true}: then the test starter fails,
 * naming {@code scripts/envtest.sh}.
 */
@InformerTest(server = Server.REAL, manifests = "classpath:k8s/widget-crd.yaml",
		properties = { "informer.resources.configmaps.namespaces=${informer.test.namespace}",
				"informer.resources.pods.namespaces=${informer.test.namespace}",
				"informer.resources.widgets.namespaces=${informer.test.namespace}" })
class WidgetListenersRealServerIT extends WidgetListenersScenario {

	@BeforeAll
	static void requireBinaries() {
		Assumptions.assumeTrue(
				DemoApiServer.installedVersion(DemoApiServer.binaryRoot()).isPresent()
						|| Boolean.parseBoolean(System.getenv("INFORMER_REQUIRE_APISERVER")),
				() -> "No kube-apiserver/etcd binaries under " + DemoApiServer.binaryRoot()
						+ "; build them with 'bash scripts/envtest.sh'");
	}

}
