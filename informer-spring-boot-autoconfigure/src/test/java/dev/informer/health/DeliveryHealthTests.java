package dev.informer.health;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.TestWatches;
import dev.informer.test.MutableClock;
import dev.informer.watch.DeliveryHealthPolicy;
import dev.informer.watch.DeliverySnapshot;
import dev.informer.watch.DeliverySnapshot.Leadership;
import dev.informer.watch.DeliverySnapshot.Sharding;
import dev.informer.watch.WatchHealthPolicy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code delivery} component of the {@code informers} health contributor, on
 * snapshots set by hand and a clock moved by hand (lease duration 15 s, startup timeout
 * 60 s).
 */
class DeliveryHealthTests {

	private final MutableClock clock = MutableClock.startingAt("2026-01-01T00:00:00Z");

	private final Instant start = this.clock.instant();

	private final AtomicReference<DeliverySnapshot> snapshot = new AtomicReference<>();

	private final ResourceInformer<ConfigMap> informer = TestWatches.configMaps(this.clock, "team-a");

	private final InformersHealthContributor contributor = new InformersHealthContributor(
			new DefaultInformerRegistry(List.of(this.informer)),
			new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60)), this.clock,
			new DeliveryHealthIndicator(this::current,
					new DeliveryHealthPolicy(Duration.ofSeconds(15), Duration.ofSeconds(60)), this.clock));

	@Test
	void aLeaderIsUpWithTheDetailsAnOperatorLooksFor() {
		leader(DeliveryRole.LEADER, "pod-a", this.start, this.start);
		Health health = delivery();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("modes", Map.of("configmaps", "leader"))
			.containsEntry("group", "orders")
			.containsEntry("identity", "pod-a")
			.containsEntry("leaseNamespace", "apps")
			.containsEntry("publishing", true)
			.doesNotContainKeys("reason", "sharding");
		assertThat(health.getDetails().get("leadership"))
			.isEqualTo(Map.of("role", "LEADER", "lease", "orders", "holder", "pod-a", "lastRenewal",
					"2026-01-01T00:00:00Z", "lastContact", "2026-01-01T00:00:00Z", "handovers", 1L));
	}

	@Test
	void aStandbyThatReadsTheLeaseIsUpAndNotPublishing() {
		leader(DeliveryRole.STANDBY, "pod-a", null, this.start);
		this.clock.advance(Duration.ofMinutes(5));
		leader(DeliveryRole.STANDBY, "pod-a", null, this.clock.instant().minusSeconds(2));
		Health health = delivery();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("publishing", false);
		assertThat(health.getDetails().get("leadership")).isEqualTo(Map.of("role", "STANDBY", "lease", "orders",
				"holder", "pod-a", "lastContact", "2026-01-01T00:04:58Z", "handovers", 1L));
	}

	@Test
	void aReplicaThatSteppedDownBecauseItsWatchesAreStaleIsUpWithTheReasonAndTheStaleWatches() {
		leader(DeliveryRole.STANDBY, "pod-a", null, this.start);
		DeliverySnapshot standby = this.snapshot.get();
		this.snapshot.set(new DeliverySnapshot(standby.group(), standby.identity(), standby.leaseNamespace(),
				standby.informerModes(), standby.leadership(), null, this.start, new DeliverySnapshot.Staleness(
						List.of("configmaps in team-a (not watching, behind for 121 s)"), true, this.start, 1)));
		Health health = delivery();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("reason", "StaleWatches")
			.containsEntry("publishing", false)
			.containsEntry("staleness",
					Map.of("steppedDown", true, "staleWatches",
							List.of("configmaps in team-a (not watching, behind for 121 s)"), "steppedDownAt",
							"2026-01-01T00:00:00Z", "stepDowns", 1L));
	}

	@Test
	void aReplicaThatCannotReachTheLeaseForLongerThanTheLeaseDurationIsDown() {
		leader(DeliveryRole.STANDBY, "pod-a", null, this.start);
		this.clock.advance(Duration.ofSeconds(15));
		assertThat(delivery().getStatus()).isEqualTo(Status.UP);
		this.clock.advance(Duration.ofSeconds(1));
		Health health = delivery();
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("reason", "LeaseUnreachable");
	}

	@Test
	void aReplicaThatNeverReachedTheLeaseIsDownAfterTheStartupTimeout() {
		leader(DeliveryRole.STANDBY, null, null, null);
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(delivery().getStatus()).isEqualTo(Status.UP);
		this.clock.advance(Duration.ofSeconds(1));
		Health health = delivery();
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("reason", "LeaseUnreachable");
	}

	@Test
	void aShardedMemberShowsItsRangesAndMembersAndIsDownOnceItsLeaseExpired() {
		sharded(DeliveryRole.MEMBER, List.of("pod-a", "pod-b"), List.of("shardRange(0x0,0x8000000000000000)"),
				this.start);
		Health health = delivery();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("modes", Map.of("configmaps", "sharded"))
			.containsEntry("publishing", true)
			.doesNotContainKey("leadership");
		assertThat(health.getDetails().get("sharding")).isEqualTo(Map.of("role", "MEMBER", "lease", "orders-pod-a",
				"members", List.of("pod-a", "pod-b"), "ownedRanges", List.of("shardRange(0x0,0x8000000000000000)"),
				"serverSharding", true, "lastRenewal", "2026-01-01T00:00:00Z", "rangeChanges", 2L));
		this.clock.advance(Duration.ofSeconds(16));
		sharded(DeliveryRole.DETACHED, List.of("pod-b"), List.of(), this.start);
		Health detached = delivery();
		assertThat(detached.getStatus()).isEqualTo(Status.DOWN);
		assertThat(detached.getDetails()).containsEntry("reason", "LeaseExpired").containsEntry("publishing", false);
	}

	@Test
	void aShardedMemberThatLeftTheGroupBecauseItsWatchesAreStaleIsUpWithTheReasonNotLeaseExpired() {
		sharded(DeliveryRole.DETACHED, List.of("pod-b"), List.of(), this.start);
		DeliverySnapshot detached = this.snapshot.get();
		this.snapshot.set(new DeliverySnapshot(detached.group(), detached.identity(), detached.leaseNamespace(),
				detached.informerModes(), null, detached.sharding(), this.start, new DeliverySnapshot.Staleness(
						List.of("configmaps in team-a (not watching, behind for 121 s)"), true, this.start, 1)));
		// its member Lease was deleted on purpose: the others own its range
		this.clock.advance(Duration.ofMinutes(5));
		Health health = delivery();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("reason", "StaleWatches").containsEntry("publishing", false);
	}

	@Test
	void aShardedReplicaThatNeverRenewedIsDownAfterTheStartupTimeout() {
		sharded(DeliveryRole.DETACHED, List.of(), List.of(), null);
		assertThat(delivery().getStatus()).isEqualTo(Status.UP);
		this.clock.advance(Duration.ofSeconds(61));
		assertThat(delivery().getDetails()).containsEntry("reason", "LeaseExpired");
		assertThat(delivery().getStatus()).isEqualTo(Status.DOWN);
	}

	@Test
	void everyInformerPublishingEverywhereHasNoDeliveryComponent() {
		this.snapshot.set(new DeliverySnapshot("orders", "pod-a", "apps", Map.of("configmaps", DeliveryMode.ALL), null,
				null, this.start));
		assertThat(this.contributor.getContributor("delivery")).isNull();
		assertThat(this.contributor.stream().map(CompositeHealthContributor.Entry::name)).containsExactly("configmaps");
		leader(DeliveryRole.LEADER, "pod-a", this.start, this.start);
		assertThat(this.contributor.stream().map(CompositeHealthContributor.Entry::name)).containsExactly("configmaps",
				"delivery");
	}

	private DeliverySnapshot current() {
		DeliverySnapshot current = this.snapshot.get();
		return new DeliverySnapshot(current.group(), current.identity(), current.leaseNamespace(),
				current.informerModes(), current.leadership(), current.sharding(), this.clock.instant(),
				current.staleness());
	}

	private void leader(DeliveryRole role, String holder, Instant lastRenewal, Instant lastContact) {
		this.snapshot.set(new DeliverySnapshot("orders", (role == DeliveryRole.LEADER) ? holder : "pod-b", "apps",
				Map.of("configmaps", DeliveryMode.LEADER),
				new Leadership(role, "orders", holder, lastRenewal, lastContact, 1), null, this.clock.instant()));
	}

	private void sharded(DeliveryRole role, List<String> members, List<String> ranges, Instant lastRenewal) {
		this.snapshot.set(new DeliverySnapshot("orders", "pod-a", "apps", Map.of("configmaps", DeliveryMode.SHARDED),
				null, new Sharding(role, "orders-pod-a", members, ranges, true, lastRenewal, 2), this.clock.instant()));
	}

	private Health delivery() {
		HealthContributor delivery = this.contributor.getContributor("delivery");
		assertThat(delivery).isInstanceOf(HealthIndicator.class);
		return ((HealthIndicator) delivery).health();
	}

}
