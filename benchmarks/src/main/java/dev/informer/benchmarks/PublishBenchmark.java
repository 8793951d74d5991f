package dev.informer.benchmarks;

import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.event.EventListener;

import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.listeners.InformerEventListenerFactory;
import dev.informer.runtime.listeners.InformerEventPublisher;

/**
 * The starter's publish path alone, as a fabric8 update callback runs it: build the
 * {@link ResourceUpdatedEvent}, find its listeners, invoke the one no-op
 * {@code @EventListener} of an application context, with or without a SpEL condition,
 * with or without the starter's compiled conditions.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PublishBenchmark {

	@Param({ "none", "spel" })
	public String condition;

	/**
	 * Whether the starter's listener factory is registered, as
	 * {@code informer.events.compile-conditions} (default true) does; false is Spring's
	 * adapter alone.
	 */
	@Param({ "true", "false" })
	public boolean compileConditions;

	private AnnotationConfigApplicationContext context;

	private InformerEventPublisher publisher;

	private ConfigMap oldResource;

	private ConfigMap newResource;

	@Setup(Level.Trial)
	public void setUp() {
		this.context = new AnnotationConfigApplicationContext();
		if (this.compileConditions) {
			this.context.registerBean(InformerEventListenerFactory.class);
		}
		this.context.register("spel".equals(this.condition) ? ConditionalListener.class : PlainListener.class);
		this.context.refresh();
		this.publisher = new InformerEventPublisher();
		this.publisher.addListenersOf(this.context);
		this.oldResource = Workload.configMap("default", "cm-000001");
		this.oldResource.getMetadata().setResourceVersion("1");
		this.newResource = Workload.configMap("default", "cm-000001");
		this.newResource.getMetadata().setResourceVersion("2");
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.context.close();
	}

	@Benchmark
	public int publish() {
		return this.publisher
			.publish(new ResourceUpdatedEvent<>("configmaps", ConfigMap.class, this.oldResource, this.newResource));
	}

	/**
	 * Listener without condition.
	 */
	public static class PlainListener {

		volatile Object last;

		@EventListener
		void on(ResourceUpdatedEvent<ConfigMap> event) {
			this.last = event;
		}

	}

	/**
	 * Listener with a SpEL condition that holds.
	 */
	public static class ConditionalListener {

		volatile Object last;

		@EventListener(condition = "#event.namespace == 'default'")
		void on(ResourceUpdatedEvent<ConfigMap> event) {
			this.last = event;
		}

	}

}
