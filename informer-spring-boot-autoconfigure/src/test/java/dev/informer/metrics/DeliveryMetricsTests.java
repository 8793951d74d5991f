package dev.informer.metrics;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;
import dev.informer.watch.DeliverySnapshot;
import dev.informer.watch.DeliverySnapshot.Leadership;
import dev.informer.watch.DeliverySnapshot.Sharding;
import dev.informer.watch.DeliveryStatusSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Meters of delivery across replicas, read from snapshots set by hand.
 */
class DeliveryMetricsTests {

	private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final AtomicReference<DeliverySnapshot> snapshot = new AtomicReference<>();

	private final AtomicLong owned = new AtomicLong();

	private final DeliveryStatusSource source = new DeliveryStatusSource() {

		@Override
		public DeliverySnapshot snapshot() {
			return DeliveryMetricsTests.this.snapshot.get();
		}

		@Override
		public long ownedObjects() {
			return DeliveryMetricsTests.this.owned.get();
		}

	};

	@Test
	void aLeaderIsOneAndAStandbyZeroWithHandoversAndOwnedObjects() {
		leader(DeliveryRole.STANDBY, 0);
		new DeliveryMetrics(this.source).bindTo(this.meters);
		assertThat(this.meters.get("informer.delivery.leader")
			.tag("group", "orders")
			.tag("mode", "leader")
			.gauge()
			.value()).isZero();
		leader(DeliveryRole.LEADER, 1);
		this.owned.set(42);
		assertThat(this.meters.get("informer.delivery.leader").gauge().value()).isEqualTo(1);
		assertThat(this.meters.get("informer.delivery.handovers").tag("mode", "leader").functionCounter().count())
			.isEqualTo(1);
		assertThat(this.meters.get("informer.delivery.owned.objects").tag("group", "orders").gauge().value())
			.isEqualTo(42);
		assertThat(this.meters.find("informer.delivery.range.changes").meters()).isEmpty();
		assertThat(this.meters.getMeters()).map(Meter::getId)
			.allSatisfy((id) -> assertThat(id.getTag("group")).isEqualTo("orders"));
	}

	@Test
	void aReplicaThatSteppedDownBecauseItsWatchesAreStaleSaysSoAndCountsIt() {
		leader(DeliveryRole.STANDBY, 0);
		new DeliveryMetrics(this.source).bindTo(this.meters);
		assertThat(this.meters.get("informer.delivery.stepped.down").tag("group", "orders").gauge().value()).isZero();
		assertThat(this.meters.get("informer.delivery.step.downs").functionCounter().count()).isZero();
		DeliverySnapshot standby = this.snapshot.get();
		this.snapshot.set(new DeliverySnapshot(standby.group(), standby.identity(), standby.leaseNamespace(),
				standby.informerModes(), standby.leadership(), null, NOW,
				new DeliverySnapshot.Staleness(List.of("configmaps"), true, NOW, 2)));
		assertThat(this.meters.get("informer.delivery.stepped.down").gauge().value()).isEqualTo(1);
		assertThat(this.meters.get("informer.delivery.step.downs").functionCounter().count()).isEqualTo(2);
	}

	@Test
	void aShardedMemberCountsRangeChangesAndMembers() {
		sharded(3, List.of("pod-a", "pod-b", "pod-c"));
		new DeliveryMetrics(this.source).bindTo(this.meters);
		assertThat(this.meters.get("informer.delivery.range.changes").tag("mode", "sharded").functionCounter().count())
			.isEqualTo(3);
		assertThat(this.meters.get("informer.delivery.members").gauge().value()).isEqualTo(3);
		sharded(4, List.of("pod-a", "pod-b"));
		assertThat(this.meters.get("informer.delivery.range.changes").functionCounter().count()).isEqualTo(4);
		assertThat(this.meters.get("informer.delivery.members").gauge().value()).isEqualTo(2);
		assertThat(this.meters.find("informer.delivery.leader").meters()).isEmpty();
		assertThat(this.meters.find("informer.delivery.owned.objects").meters()).hasSize(1);
	}

	@Test
	void noTagIsALabelThatPrometheusGivesEveryTarget() {
		leader(DeliveryRole.LEADER, 0);
		new DeliveryMetrics(this.source).bindTo(this.meters);
		sharded(0, List.of("pod-a"));
		new DeliveryMetrics(this.source).bindTo(this.meters);
		assertThat(this.meters.getMeters()).flatMap((meter) -> meter.getId().getTags())
			.extracting(Tag::getKey)
			.containsOnly("group", "mode")
			.doesNotContainAnyElementsOf(MonitoringAssetsTests.TARGET_LABELS);
	}

	@Test
	void nothingIsRegisteredWhenEveryReplicaPublishesEverything() {
		this.snapshot.set(new DeliverySnapshot("orders", "pod-a", "apps", Map.of("configmaps", DeliveryMode.ALL), null,
				null, NOW));
		new DeliveryMetrics(this.source).bindTo(this.meters);
		assertThat(this.meters.getMeters()).isEmpty();
	}

	private void leader(DeliveryRole role, long handovers) {
		this.snapshot.set(new DeliverySnapshot("orders", "pod-a", "apps", Map.of("configmaps", DeliveryMode.LEADER),
				new Leadership(role, "orders", "pod-a", NOW, NOW, handovers), null, NOW));
	}

	private void sharded(long rangeChanges, List<String> members) {
		this.snapshot
			.set(new DeliverySnapshot("orders", "pod-a", "apps", Map.of("configmaps", DeliveryMode.SHARDED), null,
					new Sharding(DeliveryRole.MEMBER, "orders-pod-a", members, List.of("r"), false, NOW, rangeChanges),
					NOW));
	}

}
