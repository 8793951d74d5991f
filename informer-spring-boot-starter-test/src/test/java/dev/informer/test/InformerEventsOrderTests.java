package dev.informer.test;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

import dev.informer.event.ResourceAddedEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link InformerEvents} records an event after the application's listeners handled it,
 * so that a test which saw the event recorded can assert on what its listeners did
 * without waiting again.
 */
class InformerEventsOrderTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withBean(InformerEvents.class, () -> new InformerEvents(Set.of("configmaps")))
		.withBean(Listener.class);

	@Test
	void recordsAfterTheApplicationsListeners() {
		this.runner.run((context) -> {
			context.publishEvent(new ResourceAddedEvent<>("configmaps", ConfigMap.class,
					new ConfigMapBuilder().withNewMetadata()
						.withNamespace("default")
						.withName("x")
						.endMetadata()
						.build()));
			assertThat(context.getBean(Listener.class).recordedWhenHandled).containsExactly(0);
			assertThat(context.getBean(InformerEvents.class).of("configmaps", "default", "x")).hasSize(1);
		});
	}

	static class Listener {

		private final InformerEvents events;

		final List<Integer> recordedWhenHandled = new CopyOnWriteArrayList<>();

		Listener(InformerEvents events) {
			this.events = events;
		}

		@EventListener
		void on(ResourceAddedEvent<ConfigMap> event) {
			this.recordedWhenHandled.add(this.events.of("configmaps", "default", "x").size());
		}

	}

}
