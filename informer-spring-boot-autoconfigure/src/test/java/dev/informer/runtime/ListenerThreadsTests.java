package dev.informer.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.event.ResourceEvent;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Listeners run on at most {@code informer.listeners.max-threads} threads, however many
 * namespaces have events waiting: a replay or a relist over thousands of namespaces does
 * not start a thread per namespace.
 */
class ListenerThreadsTests {

	private static final int NAMESPACES = 12;

	/** A thread that runs listeners: a pool thread, never a recovery or Lease thread. */
	private static final Pattern LISTENER_THREAD = Pattern.compile("informer-(listener|configmaps)-\\d+");

	private final MockApiServer mock = MockApiServer.crud();

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void stop() {
		this.release.countDown();
		this.mock.close();
	}

	@Test
	void namespacesBeyondTheCapWaitForAThreadAndEveryEventIsDeliveredInTheEnd() {
		KubernetesClient client = this.mock.client();
		List<String> namespaces = IntStream.range(0, NAMESPACES).mapToObj((i) -> "ns-" + i).toList();
		namespaces.forEach(
				(namespace) -> client.configMaps().resource(TestResources.configMap(namespace, "cm", "v")).create());
		Set<String> delivered = ConcurrentHashMap.newKeySet();
		ApplicationListener<ApplicationEvent> slow = (event) -> {
			if (event instanceof ResourceEvent<?> resourceEvent) {
				try {
					// every listener call waits: all namespaces have an event waiting
					this.release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				delivered.add(resourceEvent.getNamespace());
			}
		};
		InformerContexts.runner(() -> client)
			.withBean("slow", ApplicationListener.class, () -> slow)
			.withPropertyValues("informer.startup.wait-for-sync=false", "informer.listeners.max-threads=3",
					"informer.resources.configmaps.api-version=v1", "informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + String.join(",", namespaces))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
				// every namespace's add is queued: a thread was asked for each of them
				await().atMost(Duration.ofSeconds(20))
					.until(() -> registry.informer("configmaps")
						.getWatches()
						.stream()
						.mapToLong((watch) -> watch.snapshot().cache().backlog())
						.sum() == NAMESPACES);
				assertThat(listenerThreads()).as("threads running listeners").hasSize(3);
				this.release.countDown();
				await().atMost(Duration.ofSeconds(20)).until(() -> delivered.size() == NAMESPACES);
				assertThat(delivered).containsExactlyInAnyOrderElementsOf(namespaces);
			});
	}

	private static List<String> listenerThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> LISTENER_THREAD.matcher(name).matches())
			.toList();
	}

}
