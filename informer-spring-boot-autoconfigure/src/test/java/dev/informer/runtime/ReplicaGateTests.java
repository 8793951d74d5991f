package dev.informer.runtime;

import java.time.Instant;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.InformerCustomizer;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourcesReplayedEvent;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.replicas.DeliveryGate;
import dev.informer.test.TestResources;
import dev.informer.watch.RelistReason;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the delivery gate of a replica does with each event on fabric8's CRUD mock: it is
 * asked before each listener, so that no listener is called once the Lease lapsed; what
 * it kept back while this replica owed it is replayed once it publishes again; and
 * relists for a new shard range wait for list permits and are retried when they fail.
 */
class ReplicaGateTests {

	@AutoClose
	private final InformerMock mock = new InformerMock();

	private final List<String> first = new CopyOnWriteArrayList<>();

	private final List<String> second = new CopyOnWriteArrayList<>();

	private final List<ApplicationEvent> events = new CopyOnWriteArrayList<>();

	private final AtomicReference<DeliveryGate.Verdict> verdict = new AtomicReference<>(DeliveryGate.Verdict.PUBLISH);

	private ResourceInformer<ConfigMap> informer;

	@Test
	void aLeaseThatLapsesWhileAnEventIsDeliveredKeepsItFromTheNextListenerAndReplaysItLater() throws Exception {
		InformerEventPublisher publisher = new InformerEventPublisher();
		// the first listener runs as the renew deadline passes
		publisher.addListener((ApplicationListener<ApplicationEvent>) (event) -> {
			if (event instanceof ResourceEvent<?> resourceEvent) {
				this.first.add(kind(resourceEvent));
				if (resourceEvent.getName().equals("late") && resourceEvent instanceof ResourceAddedEvent<?> added
						&& !added.isReplay()) {
					this.verdict.set(DeliveryGate.Verdict.LAPSED);
				}
			}
		});
		publisher.addListener((ApplicationListener<ApplicationEvent>) (event) -> {
			if (event instanceof ResourceEvent<?> resourceEvent) {
				this.second.add(kind(resourceEvent));
			}
			this.events.add(event);
		});
		this.informer = this.mock.stopping(TestWatches.configMaps(Clock.systemUTC(), publisher, Duration.ZERO, "apps"));
		this.informer.deliverThrough((resource) -> this.verdict.get(), () -> null);
		this.informer.start(this.mock.client(), List.of()).get(10, TimeUnit.SECONDS);
		create("apps", "early");
		await().until(() -> this.second.contains("added early"));
		create("apps", "late");
		await().until(() -> this.first.contains("added late"));
		create("apps", "missed");
		await().until(() -> this.informer.getCache().get("apps", "missed").isPresent()
				&& this.informer.getWatches().get(0).snapshot().cache().backlog() == 0);
		assertThat(this.second).as("no listener after the renew deadline").containsExactly("added early");
		assertThat(this.first).doesNotContain("added missed");
		// the Lease counts as held again
		this.verdict.set(DeliveryGate.Verdict.PUBLISH);
		this.informer.replayIfOwed("lapse");
		await().until(() -> this.events.stream().anyMatch(ResourcesReplayedEvent.class::isInstance));
		assertThat(this.second).containsExactlyInAnyOrder("added early", "replay early", "replay late",
				"replay missed");
		ResourcesReplayedEvent replayed = (ResourcesReplayedEvent) this.events.stream()
			.filter(ResourcesReplayedEvent.class::isInstance)
			.findFirst()
			.orElseThrow();
		assertThat(replayed.getReason()).isEqualTo("lapse");
		assertThat(replayed.getCount()).isEqualTo(3);
		// owed nothing more: no second replay
		this.informer.replayIfOwed("lapse");
		create("apps", "after");
		await().until(() -> this.second.contains("added after"));
		assertThat(this.events.stream().filter(ResourcesReplayedEvent.class::isInstance)).hasSize(1);
	}

	@Test
	void eventsKeptBackFromAnotherReplicasObjectsAreNotOwed() throws Exception {
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener((ApplicationListener<ApplicationEvent>) this.events::add);
		this.informer = this.mock.stopping(TestWatches.configMaps(Clock.systemUTC(), publisher, Duration.ZERO, "apps"));
		this.verdict.set(DeliveryGate.Verdict.NOT_OURS);
		this.informer.deliverThrough((resource) -> this.verdict.get(), () -> null);
		this.informer.start(this.mock.client(), List.of()).get(10, TimeUnit.SECONDS);
		create("apps", "theirs");
		await().until(() -> this.informer.getCache().get("apps", "theirs").isPresent()
				&& this.informer.getWatches().get(0).snapshot().cache().backlog() == 0);
		this.verdict.set(DeliveryGate.Verdict.PUBLISH);
		this.informer.replayIfOwed("lapse");
		create("apps", "ours");
		await().until(() -> this.events.stream()
			.anyMatch((event) -> event instanceof ResourceAddedEvent<?> added && added.getName().equals("ours")));
		assertThat(this.events).noneMatch(ResourcesReplayedEvent.class::isInstance)
			.noneMatch((event) -> event instanceof ResourceEvent<?> resourceEvent
					&& resourceEvent.getName().equals("theirs"));
	}

	@Test
	void relistsForANewShardRangeWaitForListPermitsAndOneThatFailsIsRetried() throws Exception {
		ListPermits permits = new ListPermits(1);
		AtomicInteger generationsOfA = new AtomicInteger();
		// the application's customizer throws on the first relist of namespace a
		InformerCustomizer customizer = (spec) -> {
			if ("a".equals(spec.getNamespace()) && generationsOfA.incrementAndGet() == 2) {
				throw new IllegalStateException("customizer failed");
			}
		};
		this.informer = this.mock
			.stopping(TestWatches.configMaps(Clock.systemUTC(), new InformerEventPublisher(), Duration.ZERO, "a", "b"));
		this.informer.start(this.mock.client(), List.of(customizer), permits).get(10, TimeUnit.SECONDS);
		// another watch holds the only permit
		permits.run(() -> {
		});
		this.informer.relistForRange((resource) -> true, Instant.EPOCH);
		assertThat(relists()).as("no relist without a permit").containsOnly(0L);
		permits.release();
		// the CRUD mock stalls for 10 s each time a watch closes
		await().atMost(Duration.ofSeconds(90)).until(() -> relists().stream().allMatch((count) -> count >= 1));
		assertThat(generationsOfA).hasValueGreaterThanOrEqualTo(3);
		// the relisted watches watch on
		await().atMost(Duration.ofSeconds(30)).until(this.informer::isWatching);
	}

	private List<Long> relists() {
		return this.informer.getWatches()
			.stream()
			.map((watch) -> watch.snapshot().lists().relistCount(RelistReason.SHARD_RANGE))
			.toList();
	}

	private void create(String namespace, String name) {
		this.mock.client().configMaps().resource(TestResources.configMap(namespace, name, "v")).create();
	}

	private static String kind(ResourceEvent<?> event) {
		String kind = (event instanceof ResourceAddedEvent<?> added) ? (added.isReplay() ? "replay" : "added")
				: event.getClass().getSimpleName();
		return kind + " " + event.getName();
	}

}
