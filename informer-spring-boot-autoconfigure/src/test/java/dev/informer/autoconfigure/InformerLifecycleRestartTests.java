package dev.informer.autoconfigure;

import java.time.Duration;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import dev.informer.InformerState;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A context stopped and started again (as {@code context.stop()} then {@code start()}, or
 * a checkpoint and restore, do): the informers start afresh, sync again and deliver
 * again.
 */
class InformerLifecycleRestartTests {

	private final MockApiServer mock = MockApiServer.crud();

	private final ApplicationContextRunner runner = InformerContexts.runner(this.mock::client)
		.withBean(RecordingListener.class)
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=restart");

	@AfterEach
	void stopServer() {
		this.mock.close();
	}

	@Test
	void informersStoppedWithTheContextStartAgainWithIt() {
		create("before");
		this.runner.run((context) -> {
			ConfigurableApplicationContext application = context
				.getSourceApplicationContext(ConfigurableApplicationContext.class);
			RecordingListener listener = context.getBean(RecordingListener.class);
			DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
			application.stop();
			assertThat(registry.informer("configmaps").getWatches().get(0).getState()).isEqualTo(InformerState.STOPPED);
			create("while-stopped");
			listener.clear();
			application.start();
			assertThat(listener.events(InformerSyncedEvent.class)).hasSize(1);
			create("after");
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(listener.events(ResourceAddedEvent.class))
					.extracting((event) -> event.getName())
					.contains("while-stopped", "after"));
			assertThat(registry.informer("configmaps").getWatches().get(0).getState())
				.isEqualTo(InformerState.WATCHING);
			assertThat(registry.cache("configmaps", ConfigMap.class).size()).isEqualTo(3);
		});
	}

	private void create(String name) {
		// the mock may stall while a watch closes, and fabric8 retry
		// the create: take the retry's conflict for the create it is
		this.mock.client()
			.configMaps()
			.resource(TestResources.configMap("restart", name, "0"))
			.createOr(NonDeletingOperation::update);
	}

}
