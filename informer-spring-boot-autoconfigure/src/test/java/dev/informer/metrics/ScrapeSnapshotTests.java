package dev.informer.metrics;

import java.time.Duration;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import dev.informer.runtime.CountedSnapshots;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.TestWatches;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.test.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The meters of a watch read one snapshot of it per scrape, counted by
 * {@link CountedSnapshots}; the registry's clock is a {@link MockClock} moved by hand.
 */
class ScrapeSnapshotTests {

	private final MutableClock clock = MutableClock.startingAt("2026-01-01T00:00:00Z");

	private final MockClock meterClock = new MockClock();

	private final ResourceInformer<ConfigMap> informer = TestWatches.configMaps(this.clock, "team-a", "team-b");

	private final CountedSnapshots registry = new CountedSnapshots(this.informer, null);

	@Test
	void aPrometheusScrapeTakesOneSnapshotOfEachWatch() {
		PrometheusMeterRegistry prometheus = prometheus();
		new InformerMetrics(this.registry).bindTo(prometheus);
		assertThat(prometheus.scrape()).contains("informer_cache_size_objects{informer=\"configmaps\"");
		assertThat(this.registry.watch(0).snapshots()).isOne();
		assertThat(this.registry.watch(1).snapshots()).isOne();
	}

	@Test
	void theNextScrapeTakesAFreshSnapshotHoweverSoonItComes() {
		PrometheusMeterRegistry prometheus = prometheus();
		new InformerMetrics(this.registry).bindTo(prometheus);
		prometheus.scrape();
		TestWatches.sync(this.registry.watch(0).watch(), 3);
		// the registry's clock has not moved: a meter read again starts the next scrape
		assertThat(prometheus.scrape())
			.contains("informer_list_items_objects{informer=\"configmaps\",k8s_namespace_name=\"team-a\"} 3.0");
		assertThat(this.registry.watch(0).snapshots()).isEqualTo(2);
	}

	@Test
	void aMeterReadOnItsOwnSeesASnapshotNoOlderThanTheMaximumAge() {
		SimpleMeterRegistry meters = new SimpleMeterRegistry(SimpleConfig.DEFAULT, this.meterClock);
		new InformerMetrics(this.registry).bindTo(meters);
		assertThat(read(meters, "informer.synced")).isZero();
		TestWatches.sync(this.registry.watch(0).watch(), 3);
		this.meterClock.add(ScrapeSnapshot.MAX_AGE);
		// not read yet in this scrape, and the snapshot is not older than the maximum age
		assertThat(read(meters, "informer.list.duration")).as("lists counted").isZero();
		assertThat(this.registry.watch(0).snapshots()).isOne();
		this.meterClock.add(Duration.ofMillis(1));
		assertThat(read(meters, "informer.list.items")).isEqualTo(3);
		assertThat(this.registry.watch(0).snapshots()).isEqualTo(2);
	}

	@Test
	void theWatchOnNamespacesOfASelectorIsReadOnceAScrape() {
		ResourceInformer<ConfigMap> tenants = TestWatches.selectedConfigMaps(this.clock, "tenant=acme");
		WatchStatus namespaces = new WatchStatus(null, Duration.ZERO, this.clock,
				(status, previous, current, cause) -> {
				});
		CountedSnapshots registry = new CountedSnapshots(tenants, namespaces);
		PrometheusMeterRegistry prometheus = prometheus();
		new InformerMetrics(registry).bindTo(prometheus);
		assertThat(prometheus.scrape())
			.contains("informer_namespace_selection_synced{informer=\"tenants\",selector=\"tenant=acme\"} 0.0");
		assertThat(registry.namespaceWatch().snapshots()).isOne();
		TestWatches.sync(namespaces, 4);
		assertThat(prometheus.scrape())
			.contains("informer_namespace_selection_synced{informer=\"tenants\",selector=\"tenant=acme\"} 1.0");
		assertThat(registry.namespaceWatch().snapshots()).isEqualTo(2);
	}

	private PrometheusMeterRegistry prometheus() {
		return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), this.meterClock);
	}

	private static double read(SimpleMeterRegistry meters, String name) {
		Meter meter = meters.get(name).tag(InformerMetrics.NAMESPACE_TAG, "team-a").meter();
		return meter.measure().iterator().next().getValue();
	}

}
