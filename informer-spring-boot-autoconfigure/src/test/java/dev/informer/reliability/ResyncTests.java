package dev.informer.reliability;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.metrics.InformerMetrics;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.watch.EventType;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.describe;
import static dev.informer.reliability.FaultServer.event;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.updates;
import static dev.informer.reliability.FaultServer.watchPath;
import static dev.informer.reliability.FaultServer.withInformer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Resync (fault matrix rows 18 and 19): fabric8 replays its cache as updates every period
 * without asking the server, whether or not the watch has anything to say; the starter
 * flags them, times each cycle, and keeps cycling past listeners that fail.
 */
class ResyncTests {

	private static final String NS = "resync";

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	private final ApplicationContextRunner runner = this.faults.configMaps(NS)
		.withPropertyValues("informer.resources.configmaps.resync-period=1s");

	@Test
	void resyncEventsAreFlaggedAndTimedAndAListenerFailingOneCycleDoesNotStopTheNext() {
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1"), cm(NS, "b", "2")));
		this.faults.watchStaysOpen(watchPath(NS, "10"), event("MODIFIED", cm(NS, "a", "11")));
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		this.runner.withBean(FailingFirstResync.class).run(withInformer((context, listener, informer, status) -> {
			new InformerMetrics(context.getBean(DefaultInformerRegistry.class)).bindTo(meters);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> status.snapshot().resync().cycles() >= 3
						&& status.snapshot().events().count(EventType.RESYNC) == 2
								* status.snapshot().resync().cycles());
			// the failing listener threw on both events
			// of the first cycle, and only those
			assertThat(context.getBean(FailingFirstResync.class).calls.get()).isGreaterThanOrEqualTo(6);
			assertThat(status.snapshot().events().listenerFailures()).isEqualTo(2);
			List<ResourceUpdatedEvent<?>> updates = updates(listener);
			// one real change; every other update replays
			// the cache: same object as old and new
			assertThat(describe(updates.stream().filter((update) -> !update.isResync()).toList()))
				.containsExactly("updated a 11");
			List<ResourceUpdatedEvent<?>> resyncs = updates.stream().filter(ResourceUpdatedEvent::isResync).toList();
			assertThat(resyncs).hasSizeGreaterThanOrEqualTo(6)
				.allSatisfy((update) -> assertThat(update.getOldResource()).isSameAs(update.getResource()));
			// cycles after the change replay the cache as it is after the change
			int change = updates.indexOf(updates.stream().filter((update) -> !update.isResync()).findFirst().get());
			assertThat(describe(updates.subList(change + 1, updates.size()))).hasSizeGreaterThanOrEqualTo(4)
				.containsOnly("updated a 11 resync", "updated b 2 resync");
			assertThat(status.snapshot().events().count(EventType.UPDATED)).isEqualTo(1);
			// timings: each cycle is a burst, cycles a period apart
			Instant last = status.snapshot().resync().lastAt();
			assertThat(last).isNotNull();
			assertThat(status.snapshot().resync().lastDuration()).isLessThan(Duration.ofMillis(500));
			assertThat(Duration.between(last, status.snapshot().resync().nextDueAt())).isBetween(Duration.ofMillis(500),
					Duration.ofSeconds(1));
			FunctionTimer resyncTimer = meters.get("informer.resync.duration")
				.tag("k8s.namespace.name", NS)
				.functionTimer();
			assertThat(resyncTimer.count()).isGreaterThanOrEqualTo(3);
			assertThat(status.snapshot().cache().backlog()).isZero();
		}));
	}

	@Test
	void resyncFiresOnAWatchThatStaysQuietForSeveralPeriodsWithoutAskingTheServer() {
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1"), cm(NS, "b", "2"), cm(NS, "c", "3")));
		this.faults.watchStaysOpen(watchPath(NS, "10"));
		this.runner.run(withInformer((context, listener, informer, status) -> {
			await().atMost(Duration.ofSeconds(10))
				.until(() -> status.snapshot().resync().cycles() >= 3
						&& status.snapshot().events().count(EventType.RESYNC) == 3
								* status.snapshot().resync().cycles());
			assertThat(informer.isWatching()).isTrue();
			List<ResourceUpdatedEvent<?>> updates = updates(listener);
			assertThat(updates).hasSizeGreaterThanOrEqualTo(9)
				.allSatisfy((update) -> assertThat(update.isResync()).isTrue());
			assertThat(describe(updates.subList(0, 9))).containsExactlyInAnyOrder("updated a 1 resync",
					"updated b 2 resync", "updated c 3 resync", "updated a 1 resync", "updated b 2 resync",
					"updated c 3 resync", "updated a 1 resync", "updated b 2 resync", "updated c 3 resync");
			// replayed from the cache: no list, no new watch
			assertThat(this.faults.paths()).containsExactly(listPath(NS), watchPath(NS, "10"));
			assertThat(status.snapshot().lists().relistCount()).isZero();
		}));
	}

	/**
	 * Throws on every event of the first resync cycle (two objects).
	 */
	static class FailingFirstResync {

		final AtomicInteger calls = new AtomicInteger();

		@EventListener
		void on(ResourceUpdatedEvent<ConfigMap> event) {
			if (event.isResync() && this.calls.incrementAndGet() <= 2) {
				throw new IllegalStateException("resync handler down");
			}
		}

	}

}
