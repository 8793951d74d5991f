package dev.informer.metrics;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;

import dev.informer.health.InformersHealthContributor;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.TestWatches;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.test.MutableClock;
import dev.informer.watch.EventType;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchHealthPolicy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Meters read from watch statuses driven by hand.
 */
class InformerMetricsTests {

	private final MutableClock clock = MutableClock.startingAt("2026-01-01T00:00:00Z");

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final ResourceInformer<ConfigMap> informer = TestWatches.configMaps(this.clock,
			new InformerEventPublisher(), Duration.ofMinutes(5), "team-a", "team-b");

	private final Watch teamA = this.informer.getWatches().get(0);

	@Test
	void everyWatchHasItsMetersTaggedWithInformerAndWatchedNamespace() {
		bind();
		assertThat(this.meters.find("informer.synced").gauges())
			.extracting((gauge) -> gauge.getId().getTag(InformerMetrics.NAMESPACE_TAG))
			.containsExactlyInAnyOrder("team-a", "team-b");
		assertThat(this.meters.getMeters()).extracting((meter) -> meter.getId().getName())
			.contains("informer.events", "informer.cache.size", "informer.watching", "informer.synced",
					"informer.watch.reconnects", "informer.relists", "informer.list.duration", "informer.list.items",
					"informer.resync.duration", "informer.resync.last.timestamp", "informer.event.last.timestamp",
					"informer.resource.version", "informer.listener.duration", "informer.listener.errors",
					"informer.backlog");
		assertThat(this.meters.getMeters()).map(Meter::getId)
			.allSatisfy((id) -> assertThat(id.getTag("informer")).isEqualTo("configmaps"));
	}

	@Test
	void anInformerOfAllNamespacesIsTaggedWithAStar() {
		ResourceInformer<ConfigMap> all = TestWatches.configMaps(this.clock);
		new InformerMetrics(new DefaultInformerRegistry(List.of(all))).bindTo(this.meters);
		assertThat(this.meters.get("informer.synced").gauge().getId().getTag(InformerMetrics.NAMESPACE_TAG))
			.isEqualTo("*");
	}

	@Test
	void countersFollowTheStatus() {
		bind();
		TestWatches.sync(this.teamA, 5);
		TestWatches.delivered(this.teamA, EventType.ADDED, 0);
		TestWatches.delivered(this.teamA, EventType.ADDED, 2);
		TestWatches.delivered(this.teamA, EventType.DELETED, 0);
		TestWatches.watching(this.teamA, true);
		TestWatches.watching(this.teamA, false);
		TestWatches.relist(this.teamA, RelistReason.MANUAL, 4);
		assertThat(counter("informer.events", "type", "added")).isEqualTo(2);
		assertThat(counter("informer.events", "type", "deleted")).isEqualTo(1);
		assertThat(counter("informer.events", "type", "resync")).isZero();
		assertThat(counter("informer.listener.errors", null, null)).isEqualTo(2);
		assertThat(counter("informer.watch.reconnects", null, null)).isEqualTo(1);
		assertThat(counter("informer.relists", "reason", "manual")).isEqualTo(1);
		assertThat(counter("informer.relists", "reason", "410")).isZero();
		assertThat(gauge("informer.synced")).isEqualTo(1);
		assertThat(gauge("informer.list.items")).isEqualTo(4);
		FunctionTimer lists = this.meters.get("informer.list.duration")
			.tag(InformerMetrics.NAMESPACE_TAG, "team-a")
			.functionTimer();
		assertThat(lists.count()).isEqualTo(2);
		assertThat(this.meters.get("informer.synced").tag(InformerMetrics.NAMESPACE_TAG, "team-b").gauge().value())
			.isZero();
	}

	/**
	 * A dashboard and a probe answer "is it watching" from one field: the gauge never
	 * says 1 while health says the watch is not watching, or the other way round.
	 */
	@Test
	void theWatchingGaugeSaysWhatHealthSays() {
		bind();
		InformersHealthContributor health = new InformersHealthContributor(
				new DefaultInformerRegistry(List.of(this.informer)),
				new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60)), this.clock);
		CompositeHealthContributor namespaces = (CompositeHealthContributor) health.getContributor("configmaps");
		HealthIndicator teamA = (HealthIndicator) namespaces.getContributor("team-a");
		TestWatches.sync(this.teamA, 1);
		assertThat(gauge("informer.watching")).isZero();
		assertThat(teamA.health().getDetails()).containsEntry("watching", false);
		TestWatches.watching(this.teamA, true);
		assertThat(gauge("informer.watching")).isOne();
		assertThat(teamA.health().getDetails()).containsEntry("watching", true);
		TestWatches.watching(this.teamA, false);
		assertThat(gauge("informer.watching")).isZero();
		assertThat(teamA.health().getDetails()).containsEntry("watching", false);
	}

	@Test
	void timesOfTheLastEventAndResyncAreUnixTimestamps() {
		bind();
		assertThat(gauge("informer.event.last.timestamp")).isNaN();
		assertThat(gauge("informer.resync.last.timestamp")).isNaN();
		assertThat(gauge("informer.resource.version")).isNaN();
		TestWatches.sync(this.teamA, 1);
		TestWatches.delivered(this.teamA, EventType.RESYNC, 0);
		this.clock.advance(Duration.ofMillis(1500));
		TestWatches.delivered(this.teamA, EventType.RESYNC, 0);
		double resyncedAt = this.clock.instant().toEpochMilli() / 1000.0;
		this.clock.advance(Duration.ofSeconds(30));
		// 2026-01-01T00:00:01.5Z, however much later it is read
		assertThat(resyncedAt).isEqualTo(1767225601.5);
		assertThat(gauge("informer.event.last.timestamp")).isEqualTo(resyncedAt);
		assertThat(gauge("informer.resync.last.timestamp")).isEqualTo(resyncedAt);
		FunctionTimer resyncs = this.meters.get("informer.resync.duration")
			.tag(InformerMetrics.NAMESPACE_TAG, "team-a")
			.functionTimer();
		assertThat(resyncs.count()).isEqualTo(1);
		assertThat(resyncs.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(1500);
		// a bookmark moves the resourceVersion without an event
		TestWatches.resourceVersion(this.teamA, "1234");
		assertThat(gauge("informer.event.last.timestamp")).isEqualTo(resyncedAt + 30);
		assertThat(gauge("informer.resync.last.timestamp")).isEqualTo(resyncedAt);
	}

	@Test
	void noTagIsALabelThatPrometheusGivesEveryTarget() {
		bind();
		assertThat(this.meters.getMeters()).flatMap((meter) -> meter.getId().getTags())
			.extracting(Tag::getKey)
			.doesNotContainAnyElementsOf(MonitoringAssetsTests.TARGET_LABELS);
	}

	@Test
	void listenerDurationsAreRecordedThroughTheInformersDeliveryObserver() {
		bind();
		TestWatches.observer(this.informer)
			.delivered(this.informer.getName(), this.teamA.getNamespace(), EventType.UPDATED, Duration.ofMillis(20), 0);
		TestWatches.observer(this.informer)
			.delivered(this.informer.getName(), this.teamA.getNamespace(), EventType.UPDATED, Duration.ofMillis(40), 1);
		var timer = this.meters.get("informer.listener.duration")
			.tag(InformerMetrics.NAMESPACE_TAG, "team-a")
			.tag("type", "updated")
			.timer();
		assertThat(timer.count()).isEqualTo(2);
		assertThat(timer.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(60);
		assertThat(this.meters.get("informer.listener.duration")
			.tag(InformerMetrics.NAMESPACE_TAG, "team-b")
			.tag("type", "updated")
			.timer()
			.count()).isZero();
	}

	@Test
	void bindingTwiceObservesDeliveriesOnceButRecordsInBothRegistries() {
		InformerMetrics metrics = new InformerMetrics(new DefaultInformerRegistry(List.of(this.informer)));
		SimpleMeterRegistry other = new SimpleMeterRegistry();
		metrics.bindTo(this.meters);
		metrics.bindTo(other);
		TestWatches.observer(this.informer)
			.delivered(this.informer.getName(), this.teamA.getNamespace(), EventType.ADDED, Duration.ofMillis(5), 0);
		assertThat(this.meters.get("informer.listener.duration")
			.tag(InformerMetrics.NAMESPACE_TAG, "team-a")
			.tag("type", "added")
			.timer()
			.count()).isEqualTo(1);
		assertThat(other.get("informer.listener.duration")
			.tag(InformerMetrics.NAMESPACE_TAG, "team-a")
			.tag("type", "added")
			.timer()
			.count()).isEqualTo(1);
	}

	private void bind() {
		new InformerMetrics(new DefaultInformerRegistry(List.of(this.informer))).bindTo(this.meters);
	}

	private double counter(String name, String tag, String value) {
		var search = this.meters.get(name).tag(InformerMetrics.NAMESPACE_TAG, "team-a");
		if (tag != null) {
			search = search.tag(tag, value);
		}
		return search.functionCounter().count();
	}

	private double gauge(String name) {
		var search = this.meters.get(name).tag(InformerMetrics.NAMESPACE_TAG, "team-a");
		Meter meter = search.meter();
		return meter.measure().iterator().next().getValue();
	}

}
