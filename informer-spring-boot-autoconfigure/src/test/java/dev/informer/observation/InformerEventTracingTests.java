package dev.informer.observation;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.autoconfigure.observation.InformerObservationAutoConfiguration;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * End to end with a tracer bridge (Micrometer Tracing's {@link SimpleTracer}): with
 * {@code informer.events.observation-enabled=true} each delivered event is a span, in
 * scope while listeners run, so the spans they start are its children; off by default.
 */
class InformerEventTracingTests {

	private final MockApiServer mock = MockApiServer.crud();

	private final SimpleTracer tracer = new SimpleTracer();

	private final List<String> currentSpans = new CopyOnWriteArrayList<>();

	@AfterEach
	void stop() {
		this.mock.close();
	}

	@Test
	void eachDeliveredEventIsASpanThatListenersRunIn() {
		runner().withPropertyValues("informer.events.observation-enabled=true").run((context) -> {
			assertThat(context).hasNotFailed();
			this.mock.client().configMaps().resource(TestResources.configMap("traced", "settings", "v")).create();
			await().atMost(Duration.ofSeconds(20)).until(() -> !this.currentSpans.isEmpty());
			await().atMost(Duration.ofSeconds(20))
				.until(() -> this.tracer.getSpans().stream().anyMatch((span) -> span.getName().contains("added")));
			SimpleSpan event = this.tracer.getSpans()
				.stream()
				.filter((span) -> span.getName().equals("informer configmaps added"))
				.findFirst()
				.orElseThrow();
			assertThat(event.getTags()).containsEntry("informer", "configmaps")
				.containsEntry("kind", "ConfigMap")
				.containsEntry("type", "added")
				.containsEntry("k8s.namespace.name", "traced")
				.containsEntry("name", "settings");
			SimpleSpan child = this.tracer.getSpans()
				.stream()
				.filter((span) -> span.getName().equals("listener work"))
				.findFirst()
				.orElseThrow();
			assertThat(child.getParentId()).isEqualTo(event.getSpanId());
			assertThat(child.getTraceId()).isEqualTo(event.getTraceId());
		});
	}

	@Test
	void theInitialListAndEachRelistAreSpans() {
		runner().withPropertyValues("informer.events.observation-enabled=true").run((context) -> {
			assertThat(context).hasNotFailed();
			SimpleSpan initial = span("informer configmaps initial");
			assertThat(initial.getTags()).containsEntry("informer", "configmaps")
				.containsEntry("list.type", "initial")
				.containsEntry("k8s.namespace.name", "traced");
			assertThat(initial.getEndTimestamp()).isAfterOrEqualTo(initial.getStartTimestamp());
			context.getBean(DefaultInformerRegistry.class).informer("configmaps").relist().get(20, TimeUnit.SECONDS);
			SimpleSpan relist = span("informer configmaps relist");
			assertThat(relist.getTags()).containsEntry("list.type", "relist");
		});
	}

	private SimpleSpan span(String name) {
		await().atMost(Duration.ofSeconds(20))
			.until(() -> this.tracer.getSpans()
				.stream()
				.anyMatch((span) -> span.getName().equals(name) && span.getEndTimestamp().toEpochMilli() > 0));
		return this.tracer.getSpans().stream().filter((span) -> span.getName().equals(name)).findFirst().orElseThrow();
	}

	@Test
	void noSpanUnlessEnabled() {
		runner().run((context) -> {
			assertThat(context).hasNotFailed();
			this.mock.client().configMaps().resource(TestResources.configMap("traced", "settings", "v")).create();
			await().atMost(Duration.ofSeconds(20)).until(() -> !this.currentSpans.isEmpty());
			assertThat(this.currentSpans).containsOnly("none");
			// neither events nor lists
			assertThat(this.tracer.getSpans()).extracting(SimpleSpan::getName).containsOnly("listener work");
		});
	}

	private ApplicationContextRunner runner() {
		KubernetesClient client = this.mock.client();
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(this.tracer));
		ApplicationListener<ApplicationEvent> listener = (event) -> {
			if (event instanceof ResourceAddedEvent<?>) {
				Span current = this.tracer.currentSpan();
				this.currentSpans.add((current != null) ? current.context().spanId() : "none");
				// work the listener does: a span of its own, child of the event's if any
				this.tracer.nextSpan().name("listener work").start().end();
			}
		};
		return InformerContexts.runner(() -> client)
			.withConfiguration(AutoConfigurations.of(InformerObservationAutoConfiguration.class))
			.withBean(ObservationRegistry.class, () -> registry)
			.withBean("tracedListener", ApplicationListener.class, () -> listener)
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=traced");
	}

}
