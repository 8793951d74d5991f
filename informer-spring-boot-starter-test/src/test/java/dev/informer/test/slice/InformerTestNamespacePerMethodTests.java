package dev.informer.test.slice;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.RepeatedTest;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.annotation.DirtiesContext.ClassMode;

import dev.informer.test.InformerTest;
import dev.informer.test.InformerTest.Server;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A namespace per test method: a new context per method brings a new namespace.
 */
@InformerTest(server = Server.MOCK)
@DirtiesContext(classMode = ClassMode.AFTER_EACH_TEST_METHOD)
class InformerTestNamespacePerMethodTests {

	private static final List<String> namespaces = new CopyOnWriteArrayList<>();

	@Autowired
	KubernetesClient client;

	@RepeatedTest(2)
	void recordNamespace() {
		namespaces.add(this.client.getNamespace());
	}

	@AfterAll
	static void eachMethodHadItsOwnNamespace() {
		assertThat(namespaces).hasSize(2).doesNotHaveDuplicates();
	}

}
