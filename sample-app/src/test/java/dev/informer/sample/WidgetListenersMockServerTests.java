package dev.informer.sample;

import dev.informer.test.InformerTest;
import dev.informer.test.InformerTest.Server;

/**
 * The sample's listeners on fabric8's mock API server.
 */
@InformerTest(server = Server.MOCK, manifests = "classpath:k8s/widget-crd.yaml",
		properties = { "informer.resources.configmaps.namespaces=${informer.test.namespace}",
				"informer.resources.pods.namespaces=${informer.test.namespace}",
				"informer.resources.widgets.namespaces=${informer.test.namespace}" })
class WidgetListenersMockServerTests extends WidgetListenersScenario {

}
