package dev.informer.test.slice;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import dev.informer.test.InformerEvents;
import dev.informer.test.InformerTest;
import dev.informer.test.InformerTest.Server;
import dev.informer.test.RequiresRealServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A CRD and an object of it, created from a manifest before an informer of the new kind
 * starts, on the real kube-apiserver.
 */
@RequiresRealServer
@InformerTest(server = Server.REAL, manifests = "classpath:k8s/gadgets.yaml",
		properties = { "informer.resources.gadgets.api-version=test.informer.dev/v1",
				"informer.resources.gadgets.kind=Gadget",
				"informer.resources.gadgets.namespaces=${informer.test.namespace}" })
class InformerTestManifestsRealServerTests {

	@Autowired
	InformerEvents events;

	@Value("${informer.test.namespace}")
	String namespace;

	@Test
	void informerOfTheNewKindListsTheObject() {
		assertThat(this.events).receivedAdded("gadgets", this.namespace, "g");
	}

}
