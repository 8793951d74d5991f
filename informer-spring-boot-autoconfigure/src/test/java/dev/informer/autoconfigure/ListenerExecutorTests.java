package dev.informer.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.task.TaskDecorator;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import dev.informer.event.ResourceEvent;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Where listeners run ({@code informer.listeners.executor}, virtual threads, a
 * {@link TaskDecorator}): whatever the executor, each namespace's events arrive in order,
 * one at a time; and the starter's own housekeeping threads are few and named.
 */
class ListenerExecutorTests {

	private static final List<String> NAMESPACES = List.of("lane-a", "lane-b", "lane-c");

	private static final int CHANGES = 20;

	private static final ThreadLocal<String> TENANT = new ThreadLocal<>();

	private final MockApiServer mock = MockApiServer.crud();

	private final Recorder recorder = new Recorder();

	@AfterEach
	void stop() {
		this.mock.close();
	}

	@Test
	void listenersRunOnTheNamedExecutorOneOrderedLanePerNamespace() {
		ThreadPoolTaskExecutor pool = new ThreadPoolTaskExecutor();
		pool.setThreadNamePrefix("app-pool-");
		pool.setCorePoolSize(4);
		pool.initialize();
		try {
			runner().withBean("appPool", ThreadPoolTaskExecutor.class, () -> pool)
				.withPropertyValues("informer.listeners.executor=appPool")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					changeEveryNamespace();
					this.recorder.awaitAll();
					assertThat(this.recorder.threads).allMatch((thread) -> thread.startsWith("app-pool-"));
					this.recorder.assertInOrderAndNeverConcurrent();
				});
		}
		finally {
			pool.shutdown();
		}
	}

	@Test
	void aTaskDecoratorBeanWrapsEveryListenerCall() {
		TaskDecorator decorator = (task) -> () -> {
			TENANT.set("tenant-1");
			try {
				task.run();
			}
			finally {
				TENANT.remove();
			}
		};
		runner().withBean(TaskDecorator.class, () -> decorator).run((context) -> {
			assertThat(context).hasNotFailed();
			changeEveryNamespace();
			this.recorder.awaitAll();
			assertThat(this.recorder.tenants).containsOnly("tenant-1");
			this.recorder.assertInOrderAndNeverConcurrent();
		});
	}

	@Test
	void anExecutorNameWithoutABeanFailsStartupNamingTheProperty() {
		runner().withPropertyValues("informer.listeners.executor=missingPool").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("informer.listeners.executor")
				.hasMessageContaining("missingPool")
				.hasMessageContaining("applicationTaskExecutor");
		});
	}

	@Test
	void theStartersOwnThreadsAreFewAndNamed() {
		runner()
			.withPropertyValues("informer.resources.secrets.api-version=v1", "informer.resources.secrets.kind=Secret",
					"informer.resources.secrets.namespaces=lane-a")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				changeEveryNamespace();
				this.recorder.awaitAll();
				// listener threads aside: one monitor, one staleness check (its
				// lists may wait for a slow server, never the monitor), and at most
				// one recovery thread per informer (started when first needed)
				assertThat(housekeepingThreads()).contains("informer-watch-monitor")
					.hasSizeLessThanOrEqualTo(4)
					.allMatch((name) -> name
						.matches("informer-(watch-monitor|staleness-check|(configmaps|secrets)-recovery)"));
			});
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21)
	void withVirtualThreadsEnabledListenersRunOnVirtualThreadsOneOrderedLanePerNamespace() {
		runner().withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			assertThat(context).hasNotFailed();
			changeEveryNamespace();
			this.recorder.awaitAll();
			assertThat(this.recorder.virtual).containsOnly(true);
			assertThat(this.recorder.threads)
				.allMatch((thread) -> thread.startsWith(ListenerExecutorFactory.VIRTUAL_THREAD_PREFIX));
			this.recorder.assertInOrderAndNeverConcurrent();
			assertThat(housekeepingThreads()).contains("informer-watch-monitor")
				.allMatch((name) -> name.matches("informer-(watch-monitor|staleness-check|configmaps-recovery)"));
		});
	}

	@Test
	void virtualThreadTestsRunWhereRequired() {
		// CI runs this class on JDK 25 too (.ci/run); there the virtual-thread test must
		// not be skipped
		if (Boolean.parseBoolean(System.getenv("INFORMER_REQUIRE_VIRTUAL_THREADS"))) {
			assertThat(Runtime.version().feature()).as("the JDK running the virtual-thread tests")
				.isGreaterThanOrEqualTo(21);
		}
	}

	private ApplicationContextRunner runner() {
		KubernetesClient client = this.mock.client();
		return InformerContexts.runner(() -> client)
			.withBean("recorder", ApplicationListener.class, () -> this.recorder)
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + String.join(",", NAMESPACES));
	}

	private void changeEveryNamespace() {
		KubernetesClient client = this.mock.client();
		IntStream.range(0, CHANGES)
			.forEach((i) -> NAMESPACES.forEach((namespace) -> client.configMaps()
				.resource(TestResources.configMap(namespace, "cm-" + String.format("%02d", i), "v"))
				.create()));
	}

	private static List<String> housekeepingThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> name.startsWith("informer-") && !name.startsWith("informer-listener"))
			.toList();
	}

	/**
	 * Records, per namespace, the objects in the order the listener got them, and the
	 * threads it ran on.
	 */
	private static final class Recorder implements ApplicationListener<ApplicationEvent> {

		private final Map<String, List<String>> byNamespace = new ConcurrentHashMap<>();

		private final Map<String, Boolean> inside = new ConcurrentHashMap<>();

		private final List<String> threads = new CopyOnWriteArrayList<>();

		private final List<String> tenants = new CopyOnWriteArrayList<>();

		private final List<Boolean> virtual = new CopyOnWriteArrayList<>();

		private final List<String> violations = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(ApplicationEvent event) {
			if (!(event instanceof ResourceEvent<?> resourceEvent) || resourceEvent.getNamespace() == null) {
				return;
			}
			String namespace = resourceEvent.getNamespace();
			if (this.inside.put(namespace, true) != null) {
				this.violations.add("two listener calls at once in " + namespace);
			}
			try {
				this.threads.add(Thread.currentThread().getName());
				this.virtual.add(isVirtual(Thread.currentThread()));
				this.tenants.add(String.valueOf(TENANT.get()));
				this.byNamespace.computeIfAbsent(namespace, (key) -> new CopyOnWriteArrayList<>())
					.add(resourceEvent.getName());
			}
			finally {
				this.inside.remove(namespace);
			}
		}

		void awaitAll() {
			await().atMost(Duration.ofSeconds(30))
				.until(() -> NAMESPACES.stream()
					.allMatch((namespace) -> this.byNamespace.getOrDefault(namespace, List.of()).size() == CHANGES));
		}

		void assertInOrderAndNeverConcurrent() {
			assertThat(this.violations).isEmpty();
			NAMESPACES.forEach((namespace) -> assertThat(this.byNamespace.get(namespace)).isSorted());
		}

		private static boolean isVirtual(Thread thread) {
			try {
				return (boolean) Thread.class.getMethod("isVirtual").invoke(thread);
			}
			catch (ReflectiveOperationException ex) {
				return false;
			}
		}

	}

}
