package dev.informer.reliability;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.event.EventListener;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.metrics.InformerMetrics;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.TestResources;
import dev.informer.watch.EventType;

import static dev.informer.reliability.FaultServer.describe;
import static dev.informer.reliability.FaultServer.event;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.modifications;
import static dev.informer.reliability.FaultServer.objects;
import static dev.informer.reliability.FaultServer.updates;
import static dev.informer.reliability.FaultServer.watchPath;
import static dev.informer.reliability.FaultServer.withInformer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Listeners that fail or fall behind (fault matrix rows 15 and 16): a failure is the
 * listener's own, counted and logged without resource data; a slow listener makes fabric8
 * queue changes in memory, which the backlog shows, and every change still arrives once,
 * in order.
 */
@ExtendWith(OutputCaptureExtension.class)
class ListenerFaultTests {

	private static final String NS = "listeners";

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	private final ApplicationContextRunner runner = this.faults.configMaps(NS);

	@Test
	void aListenerThatThrowsIsCountedAndLoggedWhileOtherListenersAndLaterEventsCarryOn(CapturedOutput output) {
		this.faults.lists(listPath(NS), list("10", secret("a", "1")));
		this.faults.watchStaysOpen(watchPath(NS, "10"), event("ADDED", secret("b", "11")),
				event("MODIFIED", secret("a", "12")), event("DELETED", secret("b", "13")));
		this.runner.withBean(ThrowingListener.class).run(withInformer((context, listener, informer, status) -> {
			SimpleMeterRegistry meters = new SimpleMeterRegistry();
			new InformerMetrics(context.getBean(DefaultInformerRegistry.class)).bindTo(meters);
			await().atMost(Duration.ofSeconds(10)).until(() -> listener.resourceEvents().size() == 4);
			// the failing listener ran first, every time,
			// and the recording one still got everything
			assertThat(context.getBean(ThrowingListener.class).calls).containsExactly("a", "b", "a", "b");
			assertThat(describe(listener.resourceEvents())).containsExactly("added a 1", "added b 11", "updated a 12",
					"deleted b 13");
			assertThat(status.snapshot().events().listenerFailures()).isEqualTo(4);
			assertThat(meters.get("informer.listener.errors")
				.tag("informer", "configmaps")
				.tag("k8s.namespace.name", NS)
				.functionCounter()
				.count()).isEqualTo(4);
			assertThat(status.snapshot().events().byType())
				.isEqualTo(Map.of("added", 2L, "updated", 1L, "deleted", 1L));
		}));
		List<String> failures = output.getOut().lines().filter((line) -> line.contains("failed on Resource")).toList();
		assertThat(failures).hasSize(4);
		assertThat(failures.get(0)).contains(
				"failed on ResourceAddedEvent[informer=configmaps, kind=ConfigMap, object=listeners/a, resourceVersion=1]",
				"later events and other listeners are not affected");
		assertThat(failures.get(3)).contains("failed on ResourceDeletedEvent[informer=configmaps, kind=ConfigMap, "
				+ "object=listeners/b, resourceVersion=13");
		assertThat(output.getOut()).contains("IllegalStateException: listener bug").doesNotContain("hunter2");
	}

	@Test
	void aSlowListenerBuildsAVisibleBacklogAndStillGetsEveryChangeOnceInOrder() {
		List<ConfigMap> initial = objects(NS, 10);
		List<WatchEvent> burst = modifications(NS, 10, 1000);
		this.faults.lists(listPath(NS), list("100", initial.toArray(ConfigMap[]::new)));
		this.faults.watchBurst(watchPath(NS, "100"), burst);
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		this.runner.withBean(GatedListener.class).run(withInformer((context, listener, informer, status) -> {
			GatedListener gated = context.getBean(GatedListener.class);
			new InformerMetrics(context.getBean(DefaultInformerRegistry.class)).bindTo(meters);
			// the listener holds the first update while the other 999 queue up behind it
			await().atMost(Duration.ofSeconds(10)).until(() -> status.snapshot().cache().backlog() == 1000);
			assertThat(backlogGauge(meters)).isEqualTo(1000);
			assertThat(status.snapshot().events().count(EventType.UPDATED)).isZero();
			// the cache (and the resourceVersion) ran ahead of what listeners were told
			assertThat(informer.getCache().list()).allSatisfy(
					(cm) -> assertThat(Integer.parseInt(cm.getMetadata().getResourceVersion())).isGreaterThan(1090));
			assertThat(status.snapshot().cache().lastResourceVersion()).isEqualTo("1100");
			gated.open.countDown();
			await().atMost(Duration.ofSeconds(15))
				.until(() -> status.snapshot().events().count(EventType.UPDATED) == 1000);
			assertThat(status.snapshot().cache().backlog()).isZero();
			assertThat(backlogGauge(meters)).isZero();
			List<ResourceUpdatedEvent<?>> updates = updates(listener);
			// no loss, no repeat, in the server's order;
			// each update follows the previous one
			assertThat(updates).extracting(ResourceEvent::getResourceVersion)
				.containsExactlyElementsOf(burst.stream()
					.map((event) -> ((ConfigMap) event.getObject()).getMetadata().getResourceVersion())
					.toList());
			Map<String, List<Integer>> byObject = updates.stream()
				.collect(Collectors.groupingBy(ResourceEvent::getName, Collectors
					.mapping((event) -> Integer.parseInt(event.getResourceVersion()), Collectors.toList())));
			assertThat(byObject).hasSize(10)
				.allSatisfy((name, versions) -> assertThat(versions).hasSize(100).isSorted());
			Map<String, String> previous = new HashMap<>();
			initial.forEach((cm) -> previous.put(cm.getMetadata().getName(), cm.getMetadata().getResourceVersion()));
			for (ResourceUpdatedEvent<?> update : updates) {
				assertThat(update.getOldResource().getMetadata().getResourceVersion())
					.isEqualTo(previous.put(update.getName(), update.getResourceVersion()));
			}
			assertThat(meters.get("informer.listener.duration").tag("type", "updated").timer().count()).isEqualTo(1000);
		}));
	}

	private static double backlogGauge(SimpleMeterRegistry meters) {
		return meters.get("informer.backlog")
			.tag("informer", "configmaps")
			.tag("k8s.namespace.name", NS)
			.gauge()
			.value();
	}

	private static ConfigMap secret(String name, String resourceVersion) {
		return new ConfigMapBuilder(TestResources.configMap(NS, name, "hunter2")).editMetadata()
			.withResourceVersion(resourceVersion)
			.endMetadata()
			.build();
	}

	static class ThrowingListener {

		final List<String> calls = new CopyOnWriteArrayList<>();

		@Order(Ordered.HIGHEST_PRECEDENCE)
		@EventListener
		void on(ResourceEvent<ConfigMap> event) {
			this.calls.add(event.getName());
			throw new IllegalStateException("listener bug");
		}

	}

	/**
	 * Holds the first update until the test opens it: a listener stuck on a slow call.
	 */
	static class GatedListener {

		final CountDownLatch open = new CountDownLatch(1);

		@EventListener
		void on(ResourceUpdatedEvent<ConfigMap> event) throws InterruptedException {
			this.open.await(20, TimeUnit.SECONDS);
		}

	}

}
