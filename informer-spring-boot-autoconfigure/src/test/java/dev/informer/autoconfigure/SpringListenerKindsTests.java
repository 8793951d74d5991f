package dev.informer.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.transaction.event.TransactionalEventListenerFactory;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What docs/events.md says of Spring's other listener kinds under the starter's
 * publisher: informer events are published outside any transaction, so a
 * {@code @TransactionalEventListener} runs only with {@code fallbackExecution = true}
 * (Spring Modulith's {@code @ApplicationModuleListener} is one without it, so it never
 * runs); an {@code @Async} listener runs on the async executor, off the ordered lane.
 */
class SpringListenerKindsTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
		.withBean(TransactionalEventListenerFactory.class)
		.withBean("taskExecutor", SimpleAsyncTaskExecutor.class, () -> new SimpleAsyncTaskExecutor("async-listener-"))
		.withUserConfiguration(AsyncConfiguration.class)
		.withBean(Listeners.class);

	@Test
	void transactionalListenersNeedFallbackExecutionAndAsyncOnesLeaveTheLane() {
		this.runner.run((context) -> {
			InformerEventPublisher publisher = new InformerEventPublisher();
			publisher.addListenersOf(context.getSourceApplicationContext());
			publisher.publish(new ResourceAddedEvent<>("configmaps", ConfigMap.class,
					TestResources.configMap("default", "settings", "v")));
			Listeners listeners = context.getBean(Listeners.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> listeners.calls().size() == 2);
			assertThat(listeners.calls()).containsExactlyInAnyOrder("fallback on " + Thread.currentThread().getName(),
					"async");
			assertThat(listeners.asyncThreads()).allMatch((name) -> name.startsWith("async-listener-"));
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync
	static class AsyncConfiguration {

	}

	static class Listeners {

		final List<String> calls = new CopyOnWriteArrayList<>();

		final List<String> asyncThreads = new CopyOnWriteArrayList<>();

		// read through the @Async proxy: methods, not fields
		public List<String> calls() {
			return this.calls;
		}

		public List<String> asyncThreads() {
			return this.asyncThreads;
		}

		@TransactionalEventListener(fallbackExecution = true)
		void fallback(ResourceAddedEvent<ConfigMap> event) {
			this.calls.add("fallback on " + Thread.currentThread().getName());
		}

		@TransactionalEventListener
		void afterCommitOnly(ResourceAddedEvent<ConfigMap> event) {
			this.calls.add("afterCommitOnly");
		}

		@Async
		@EventListener
		void async(ResourceAddedEvent<ConfigMap> event) {
			this.asyncThreads.add(Thread.currentThread().getName());
			this.calls.add("async");
		}

	}

}
