package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import dev.informer.InformerCustomizer;
import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.InformerState;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A customizer's transform that throws on some objects: the object is cached and
 * delivered as it was before the failing transform, the failure is reported, and the
 * informer goes on (on a watch event, in the initial list and in a relist alike).
 */
class TransformFaultTests {

	private static final String NAMESPACE = "transforms";

	@AutoClose
	private final InformerMock mock = new InformerMock();

	private final RecordingListener listener = new RecordingListener();

	private ResourceInformer<ConfigMap> informer;

	@Test
	void aTransformThatThrowsOnAWatchEventLosesNoChange() throws Exception {
		start();
		create("poison");
		create("fine");
		await().atMost(Duration.ofSeconds(10)).until(() -> this.listener.events(ResourceAddedEvent.class).size() == 2);
		assertThat(this.listener.resourceEvents()).extracting(ResourceEvent::getName).containsExactly("poison", "fine");
		assertThat(this.informer.getCache().get(NAMESPACE, "fine").orElseThrow().getMetadata().getLabels())
			.containsEntry("transformed", "true");
		assertThat(this.informer.getCache().get(NAMESPACE, "poison")).isPresent();
		Watch status = this.informer.getWatches().get(0);
		assertThat(status.getLastError()).isNotNull();
		assertThat(status.getLastError().message()).contains("transform").contains("transforms/poison");
	}

	@Test
	void aTransformThatThrowsInTheInitialListDoesNotKeepTheInformerFromSyncing() throws Exception {
		create("poison");
		create("fine");
		start();
		assertThat(this.listener.resourceEvents()).extracting(ResourceEvent::getName)
			.containsExactlyInAnyOrder("poison", "fine");
	}

	@Test
	void aTransformThatThrowsDoesNotStopARelist() throws Exception {
		create("poison");
		start();
		this.listener.clear();
		// fabric8's mock server can deadlock for its 30 s write timeout when a watch is
		// closed while it sends on it (its event loop waits in
		// WatchEventsListener.onClosed for the sender, which waits for the event loop):
		// the relist closes the old watch
		this.informer.relist().get(90, TimeUnit.SECONDS);
		ConfigMap current = this.mock.client().configMaps().inNamespace(NAMESPACE).withName("poison").get();
		this.mock.client()
			.configMaps()
			.resource(new ConfigMapBuilder(current).withData(Map.of("value", "changed")).build())
			.update();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.listener.resourceEvents().size() == 1);
		assertThat(this.informer.getWatches().get(0).getState()).isEqualTo(InformerState.WATCHING);
	}

	@Test
	void aRelistWhoseCustomizerThrowsLeavesTheCurrentInformerWatching() throws Exception {
		AtomicBoolean failing = new AtomicBoolean();
		start((spec) -> {
			if (failing.get()) {
				throw new IllegalStateException("not now");
			}
		});
		failing.set(true);
		// a relist waits for a list permit: the customizer's failure ends its future
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> this.informer.relist().get(20, TimeUnit.SECONDS))
			.havingRootCause()
			.isInstanceOf(IllegalStateException.class)
			.withMessage("not now");
		create("after");
		await().atMost(Duration.ofSeconds(10)).until(() -> this.listener.events(ResourceAddedEvent.class).size() == 1);
		assertThat(this.informer.getWatches().get(0).getState()).isEqualTo(InformerState.WATCHING);
		failing.set(false);
		this.informer.relist().get(20, TimeUnit.SECONDS);
		assertThat(this.informer.getCache().get(NAMESPACE, "after")).isPresent();
	}

	private void start() throws Exception {
		start((spec) -> spec.addTransform((resource) -> {
			if (resource.getMetadata().getName().startsWith("poison")) {
				throw new IllegalStateException("cannot transform this one");
			}
			resource.getMetadata().setLabels(Map.of("transformed", "true"));
		}));
	}

	private void start(InformerCustomizer customizer) throws Exception {
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener((ResourceEvent<?> event) -> this.listener.record(event));
		InformerDeclaration declaration = InformerDeclaration.builder("configmaps")
			.apiVersion("v1")
			.kind("ConfigMap")
			.namespaces(List.of(NAMESPACE))
			.build();
		this.informer = this.mock
			.stopping(new ResourceInformer<>(new InformerDefinition<>(declaration, ConfigMap.class, "configmaps", true),
					publisher, RetryPolicy.standard(false), RecoveryOptions.DEFAULT, Clock.systemUTC()));
		this.informer.start(this.mock.client(), List.of(customizer)).get(20, TimeUnit.SECONDS);
	}

	private void create(String name) {
		this.mock.client().configMaps().resource(TestResources.configMap(NAMESPACE, name, "0")).create();
	}

}
