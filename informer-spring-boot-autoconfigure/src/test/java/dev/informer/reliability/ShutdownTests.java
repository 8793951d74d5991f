package dev.informer.reliability;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.EventListener;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.test.RecordingListener;

import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.modifications;
import static dev.informer.reliability.FaultServer.objects;
import static dev.informer.reliability.FaultServer.watchPath;
import static dev.informer.reliability.FaultServer.withInformer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The context closes while changes are queued and a listener is busy (fault matrix row
 * 25): nothing is delivered once the context has closed, the queued changes are dropped,
 * and neither the starter nor the client it was given leaves a thread behind.
 */
@ExtendWith(OutputCaptureExtension.class)
class ShutdownTests {

	private static final String NS = "shutdown";

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	// a listener object handed to the context, rather than a bean it looks up
	private final UpdateCounter registered = new UpdateCounter();

	// the context owns (and closes) its client
	// here, as Spring closes any AutoCloseable bean
	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
		.withBean(KubernetesClient.class, this.faults::newClient)
		.withBean(SlowListener.class)
		.withBean(RecordingListener.class)
		.withInitializer((context) -> context.addApplicationListener(this.registered))
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=" + NS);

	@Test
	void closingWithEventsInFlightDeliversNothingAfterwardsAndLeavesNoThreads(CapturedOutput output) {
		this.faults.lists(listPath(NS), list("100", objects(NS, 10).toArray(ConfigMap[]::new)));
		this.faults.watchBurst(watchPath(NS, "100"), modifications(NS, 10, 200));
		Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
		SlowListener[] slow = new SlowListener[1];
		RecordingListener[] recording = new RecordingListener[1];
		this.runner.run(withInformer((context, listener, informer, status) -> {
			slow[0] = context.getBean(SlowListener.class);
			recording[0] = listener;
			// the first update is in a listener that
			// will not be hurried, 199 more are queued
			await().atMost(Duration.ofSeconds(10)).until(() -> status.snapshot().cache().backlog() == 200);
			assertThat(slow[0].calls).hasValue(1);
			assertThat(recording[0].events()).hasSize(11).last().isInstanceOf(InformerSyncedEvent.class);
			assertThat(this.registered.count).hasValue(0);
			context.close();
		}));
		// the context is closed: the busy listener finishes its event
		slow[0].release.countDown();
		await().atMost(Duration.ofSeconds(5)).until(() -> slow[0].finished.get());
		// fabric8 interrupted the listener's thread when the informer stopped
		assertThat(slow[0].interrupted).isTrue();
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> slow[0].calls.get() == 1);
		// neither the rest of the in-flight event's listeners nor the queued changes ran
		assertThat(this.registered.count).hasValue(0);
		assertThat(recording[0].events()).hasSize(11);
		assertThat(output.getOut()).doesNotContain("failed on ResourceUpdatedEvent");
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(leftBehind(before)).isEmpty());
	}

	/**
	 * Threads started since {@code before} that are still alive, except JVM-wide ones
	 * that outlive any one client: fabric8's shared scheduler, the JDK HTTP client's
	 * selector (which ends when its client is garbage collected), the mock server's and
	 * Awaitility's.
	 */
	private static List<String> leftBehind(Set<Thread> before) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> !before.contains(thread) && thread.isAlive() && !isJvmWide(thread))
			.map(Thread::getName)
			.sorted()
			.toList();
	}

	private static boolean isJvmWide(Thread thread) {
		String name = thread.getName();
		return name.startsWith("CachedSingleThreadScheduler-") || name.matches("HttpClient-\\d+-SelectorManager")
				|| name.startsWith("vert.x-") || name.startsWith("awaitility")
				// the mock server schedules WebSocket messages on a pool per session it
				// never shuts down; fabric8's client threads are daemons with a prefix
				|| (name.matches("pool-\\d+-thread-\\d+") && !thread.isDaemon());
	}

	static class UpdateCounter implements ApplicationListener<ResourceUpdatedEvent<?>> {

		final AtomicInteger count = new AtomicInteger();

		@Override
		public void onApplicationEvent(ResourceUpdatedEvent<?> event) {
			this.count.incrementAndGet();
		}

	}

	/**
	 * Holds its first update until released, and does not give up when interrupted: a
	 * listener in the middle of a call it cannot abandon.
	 */
	static class SlowListener {

		final AtomicInteger calls = new AtomicInteger();

		final CountDownLatch release = new CountDownLatch(1);

		final AtomicBoolean interrupted = new AtomicBoolean();

		final AtomicBoolean finished = new AtomicBoolean();

		@Order(Ordered.HIGHEST_PRECEDENCE)
		@EventListener
		void on(ResourceUpdatedEvent<ConfigMap> event) {
			if (this.calls.incrementAndGet() > 1) {
				return;
			}
			boolean released = false;
			while (!released) {
				try {
					this.release.await(20, TimeUnit.SECONDS);
					released = true;
				}
				catch (InterruptedException ex) {
					this.interrupted.set(true);
				}
			}
			this.finished.set(true);
			if (this.interrupted.get()) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
