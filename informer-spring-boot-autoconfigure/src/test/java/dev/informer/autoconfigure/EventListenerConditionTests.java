package dev.informer.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ApplicationListenerMethodAdapter;
import org.springframework.context.event.EventListener;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.core.SpringProperties;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.transaction.event.TransactionalApplicationListenerMethodAdapter;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.transaction.event.TransactionalEventListenerFactory;

import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.listeners.InformerListenerMethodAdapter;
import dev.informer.test.ConditionProbe;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Listeners of informer events, invoked by the starter's adapter: with their
 * {@code condition} compiled they see the same events as with Spring's adapter
 * ({@code informer.events.compile-conditions=false}); other listeners and the
 * application's SpEL compiler mode are left to Spring.
 */
class EventListenerConditionTests {

	private static final int ENOUGH_TO_COMPILE = 150;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
		.withBean("acceptedNames", AcceptedNames.class, () -> new AcceptedNames(Set.of("a")))
		.withBean(TransactionalEventListenerFactory.class)
		.withBean(ConditionalListeners.class);

	@ParameterizedTest(name = "compile-conditions={0}")
	@ValueSource(booleans = { true, false })
	void conditionsSeeWhatSpringOffersThem(boolean compile) {
		this.runner.withPropertyValues("informer.events.compile-conditions=" + compile).run((context) -> {
			InformerEventPublisher publisher = publisherOf(context);
			for (String name : List.of("a", "b")) {
				assertThat(publisher.publish(new InformerSyncedEvent(name, 1, Duration.ZERO))).isZero();
				assertThat(publisher.publish(new ResourceAddedEvent<>(name, ConfigMap.class,
						TestResources.configMap("default", "cm-" + name, "v"))))
					.isZero();
			}
			assertThat(context.getBean(ConditionalListeners.class).calls).containsExactlyInAnyOrder("eventVariable:a",
					"rootEvent:a", "rootArgs:a", "p0:a", "a0:a", "parameterName:a", "beanReference:a", "stringTrue:a",
					"generic:cm-a", "noParameter", "unconditional:a", "unconditional:b");
		});
	}

	@Test
	void informerListenersGetTheStartersAdapter() {
		this.runner.run((context) -> {
			assertThat(adapterOf(context, "unconditional")).isInstanceOf(InformerListenerMethodAdapter.class);
			assertThat(adapterOf(context, "eventVariable")).isInstanceOf(InformerListenerMethodAdapter.class);
			assertThat(adapterOf(context, "generic")).isInstanceOf(InformerListenerMethodAdapter.class);
			assertThat(adapterOf(context, "noParameter")).isInstanceOf(InformerListenerMethodAdapter.class);
		});
	}

	@Test
	void otherListenersStayWithSpring() {
		this.runner.run((context) -> {
			assertThat(adapterOf(context, "otherEvent")).isExactlyInstanceOf(ApplicationListenerMethodAdapter.class);
			assertThat(adapterOf(context, "informerOrOtherEvent"))
				.isExactlyInstanceOf(ApplicationListenerMethodAdapter.class);
			assertThat(adapterOf(context, "transactional"))
				.isExactlyInstanceOf(TransactionalApplicationListenerMethodAdapter.class);
		});
	}

	@Test
	void switchedOffSpringEvaluatesEveryCondition() {
		this.runner.withPropertyValues("informer.events.compile-conditions=false").run((context) -> {
			assertThat(adapterOf(context, "eventVariable")).isExactlyInstanceOf(ApplicationListenerMethodAdapter.class);
			assertThat(adapterOf(context, "generic")).isExactlyInstanceOf(ApplicationListenerMethodAdapter.class);
		});
	}

	@Test
	void onlyASingletonIsLookedUpOnce() {
		Instances instances = new Instances();
		this.runner
			.withBean(PrototypeListener.class, () -> new PrototypeListener(instances),
					(definition) -> definition.setScope(BeanDefinition.SCOPE_PROTOTYPE))
			.run((context) -> {
				InformerEventPublisher publisher = publisherOf(context);
				for (int i = 0; i < 3; i++) {
					publisher.publish(new InformerSyncedEvent("a", 1, Duration.ZERO));
				}
				assertThat(instances.seen).hasSize(3).doesNotHaveDuplicates();
				assertThat(context.getBean(ConditionalListeners.class).calls).contains("p0:a");
			});
	}

	@Test
	void conditionsOfInformerListenersAreCompiled() {
		this.runner.run((context) -> {
			InformerEventPublisher publisher = publisherOf(context);
			publisher.publish(new InformerSyncedEvent("a", 1, Duration.ZERO));
			assertThat(ConditionProbe.compiled("informer")).isFalse();
			for (int i = 0; i < ENOUGH_TO_COMPILE; i++) {
				publisher.publish(new InformerSyncedEvent("a", 1, Duration.ZERO));
			}
			assertThat(ConditionProbe.compiled("informer")).isTrue();
			assertThat(context.getBean(ConditionalListeners.class).probed).hasSize(ENOUGH_TO_COMPILE + 1);
		});
	}

	@Test
	void theApplicationsCompilerModeIsLeftAlone() {
		this.runner.run((context) -> {
			for (int i = 0; i < ENOUGH_TO_COMPILE; i++) {
				context.publishEvent(new OtherEvent("probe"));
			}
			assertThat(ConditionProbe.compiled("other")).isFalse();
			Expression expression = new SpelExpressionParser()
				.parseExpression("T(dev.informer.test.ConditionProbe).record('application', true)");
			for (int i = 0; i < ENOUGH_TO_COMPILE; i++) {
				expression.getValue();
			}
			assertThat(ConditionProbe.compiled("application")).isFalse();
			assertThat(SpringProperties.getProperty("spring.expression.compiler.mode")).isNull();
		});
	}

	private static InformerEventPublisher publisherOf(AssertableApplicationContext context) {
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListenersOf(context.getSourceApplicationContext());
		return publisher;
	}

	private static ApplicationListener<?> adapterOf(AssertableApplicationContext context, String methodName) {
		AbstractApplicationContext source = context.getSourceApplicationContext(AbstractApplicationContext.class);
		return source.getApplicationListeners()
			.stream()
			.filter((listener) -> listener instanceof ApplicationListenerMethodAdapter adapter
					&& adapter.getTargetMethod().getDeclaringClass() == ConditionalListeners.class
					&& adapter.getTargetMethod().getName().equals(methodName))
			.findFirst()
			.orElseThrow();
	}

	record AcceptedNames(Set<String> names) {

		public boolean contains(String name) {
			return this.names.contains(name);
		}

	}

	static class Instances {

		final List<Object> seen = new CopyOnWriteArrayList<>();

	}

	static class PrototypeListener {

		private final Instances instances;

		PrototypeListener(Instances instances) {
			this.instances = instances;
		}

		@EventListener(condition = "#p0.informerName == 'a'")
		void on(InformerSyncedEvent synced) {
			this.instances.seen.add(this);
		}

	}

	static class OtherEvent extends ApplicationEvent {

		OtherEvent(String source) {
			super(source);
		}

	}

	static class ConditionalListeners {

		final List<String> calls = new CopyOnWriteArrayList<>();

		final List<Object> probed = new CopyOnWriteArrayList<>();

		@EventListener(condition = "#event.informerName == 'a'")
		void eventVariable(InformerSyncedEvent event) {
			this.calls.add("eventVariable:" + event.getInformerName());
		}

		@EventListener(condition = "#root.event.informerName == 'a'")
		void rootEvent(InformerSyncedEvent synced) {
			this.calls.add("rootEvent:" + synced.getInformerName());
		}

		@EventListener(condition = "args[0].informerName == 'a'")
		void rootArgs(InformerSyncedEvent synced) {
			this.calls.add("rootArgs:" + synced.getInformerName());
		}

		@EventListener(condition = "#p0.informerName == 'a'")
		void p0(InformerSyncedEvent synced) {
			this.calls.add("p0:" + synced.getInformerName());
		}

		@EventListener(condition = "#a0.informerName == 'a'")
		void a0(InformerSyncedEvent synced) {
			this.calls.add("a0:" + synced.getInformerName());
		}

		@EventListener(condition = "#synced.informerName == 'a'")
		void parameterName(InformerSyncedEvent synced) {
			this.calls.add("parameterName:" + synced.getInformerName());
		}

		@EventListener(condition = "@acceptedNames.contains(#p0.informerName)")
		void beanReference(InformerSyncedEvent synced) {
			this.calls.add("beanReference:" + synced.getInformerName());
		}

		@EventListener(condition = "#p0.informerName == 'a' ? 'true' : 'false'")
		void stringTrue(InformerSyncedEvent synced) {
			this.calls.add("stringTrue:" + synced.getInformerName());
		}

		@EventListener(condition = "false")
		void alwaysFalse(InformerSyncedEvent synced) {
			this.calls.add("alwaysFalse:" + synced.getInformerName());
		}

		@EventListener(condition = "#event.resource.metadata.name == 'cm-a'")
		void generic(ResourceEvent<ConfigMap> event) {
			this.calls.add("generic:" + event.getResource().getMetadata().getName());
		}

		@EventListener(classes = InformerSyncedEvent.class, condition = "event.informerName == 'a'")
		void noParameter() {
			this.calls.add("noParameter");
		}

		@EventListener(condition = "T(dev.informer.test.ConditionProbe).record('informer', #p0.informerName == 'a')")
		void probe(InformerSyncedEvent synced) {
			this.probed.add(synced);
		}

		@EventListener
		void unconditional(InformerSyncedEvent synced) {
			this.calls.add("unconditional:" + synced.getInformerName());
		}

		@EventListener(condition = "T(dev.informer.test.ConditionProbe).record('other', true)")
		void otherEvent(OtherEvent event) {
		}

		@EventListener(classes = { InformerSyncedEvent.class, OtherEvent.class }, condition = "true")
		void informerOrOtherEvent() {
		}

		@TransactionalEventListener(fallbackExecution = true, condition = "#p0.informerName == 'a'")
		void transactional(InformerSyncedEvent synced) {
		}

	}

}
