package dev.informer.sample;

import java.util.Map;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.informer.test.InformerEvents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's listeners, {@link ChangeLogger} and {@link WidgetInventory}, seeing a
 * Widget that a test creates: an {@code @InformerTest} of
 * {@code informer-spring-boot-starter-test} with the sample's own {@code application.yml}
 * and Widget CRD, every informer narrowed to the test's namespace. Subclasses choose the
 * server.
 */
@ExtendWith(OutputCaptureExtension.class)
abstract class WidgetListenersScenario {

	@Autowired
	KubernetesClient client;

	@Autowired
	InformerEvents events;

	@Test
	void listenersSeeANewWidget(CapturedOutput output) {
		String namespace = this.client.getNamespace();
		this.client.genericKubernetesResources("example.com/v1", "Widget")
			.resource(new GenericKubernetesResourceBuilder().withApiVersion("example.com/v1")
				.withKind("Widget")
				.withNewMetadata()
				.withName("w1")
				.endMetadata()
				.withAdditionalProperties(Map.of("spec", Map.of("color", "blue")))
				.build())
			.create();
		assertThat(this.events).receivedAdded("widgets", namespace, "w1");
		// both listeners ran on the same publish as the recorded event
		assertThat(output.getOut()).contains("informer=widgets type=added object=" + namespace + "/w1")
			.contains("widgets in cache by color: {blue=1}");
	}

	@Test
	void syncLogNamesEveryInformer(CapturedOutput output) {
		await().until(() -> output.getOut().contains("informer=widgets synced"));
		assertThat(output.getOut()).contains("informer=configmaps synced", "informer=pods synced",
				"informer=namespaces synced");
	}

}
