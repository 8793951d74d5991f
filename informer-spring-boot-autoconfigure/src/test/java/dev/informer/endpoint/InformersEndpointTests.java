package dev.informer.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;
import dev.informer.runtime.CountedSnapshots;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.TestWatches;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.test.MutableClock;
import dev.informer.watch.DeliveryHealthPolicy;
import dev.informer.watch.DeliverySnapshot;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchHealthPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The endpoint's descriptors and its refusals, on informers driven by hand.
 */
class InformersEndpointTests {

	private final MutableClock clock = MutableClock.startingAt("2026-01-01T00:00:00Z");

	private final ResourceInformer<ConfigMap> informer = TestWatches.configMaps(this.clock, "team-a", "team-b");

	private final InformersEndpoint endpoint = new InformersEndpoint(
			new DefaultInformerRegistry(List.of(this.informer)),
			new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60)), this.clock);

	@Test
	void anInformerIsAsHealthyAsItsWorstWatch() {
		Watch teamA = this.informer.getWatches().get(0);
		Watch teamB = this.informer.getWatches().get(1);
		TestWatches.sync(teamA, 1);
		TestWatches.watching(teamA, true);
		TestWatches.sync(teamB, 2);
		TestWatches.watching(teamB, true);
		assertThat(this.endpoint.informer("configmaps").status()).isEqualTo("UP");
		TestWatches.fail(teamB, TestWatches.forbidden());
		InformersEndpoint.InformerDescriptor descriptor = this.endpoint.informer("configmaps");
		assertThat(descriptor.status()).isEqualTo("DOWN");
		assertThat(descriptor.declaration()).containsEntry("kind", "ConfigMap")
			.containsEntry("namespaces", List.of("team-a", "team-b"))
			.containsEntry("type", ConfigMap.class.getName());
		assertThat(descriptor.watches())
			.extracting((watch) -> watch.get("namespace") + " " + watch.get("status") + " " + watch.get("reason"))
			.containsExactly("team-a UP null", "team-b DOWN Forbidden");
		assertThat(this.endpoint.informers().informers()).containsOnlyKeys("configmaps");
	}

	@Test
	void aRequestTakesOneSnapshotOfEachWatch() {
		CountedSnapshots registry = new CountedSnapshots(this.informer, null);
		InformersEndpoint endpoint = new InformersEndpoint(registry,
				new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60)), this.clock);
		endpoint.informers();
		assertThat(registry.watch(0).snapshots()).isOne();
		assertThat(registry.watch(1).snapshots()).isOne();
		endpoint.informer("configmaps");
		assertThat(registry.watch(0).snapshots()).isEqualTo(2);
		assertThat(registry.watch(1).snapshots()).isEqualTo(2);
	}

	@Test
	void aRequestTakesOneSnapshotOfTheWatchOnNamespacesOfASelector() {
		WatchStatus namespaces = new WatchStatus(null, Duration.ZERO, this.clock,
				(status, previous, current, cause) -> {
				});
		CountedSnapshots registry = new CountedSnapshots(TestWatches.selectedConfigMaps(this.clock, "tenant=acme"),
				namespaces);
		InformersEndpoint endpoint = new InformersEndpoint(registry,
				new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60)), this.clock);
		assertThat(endpoint.informer("tenants").namespaceSelection()).containsEntry("state", "STARTING");
		assertThat(registry.namespaceWatch().snapshots()).isOne();
	}

	@Test
	void theDeliverySectionShowsThisReplicasPartWhenDeliveryIsShared() {
		Instant now = this.clock.instant();
		DeliverySnapshot sharded = new DeliverySnapshot("orders", "pod-a", "apps",
				Map.of("configmaps", DeliveryMode.SHARDED), null,
				new DeliverySnapshot.Sharding(DeliveryRole.MEMBER, "orders-pod-a", List.of("pod-a", "pod-b"),
						List.of("shardRange(0x0,0x8000000000000000)"), true, now, 1),
				now);
		InformersEndpoint endpoint = new InformersEndpoint(new DefaultInformerRegistry(List.of(this.informer)),
				new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60)), this.clock, () -> sharded,
				new DeliveryHealthPolicy(Duration.ofSeconds(15), Duration.ofSeconds(60)));
		Map<String, Object> delivery = endpoint.informers().delivery();
		assertThat(delivery).containsEntry("status", "UP")
			.containsEntry("group", "orders")
			.containsEntry("identity", "pod-a")
			.containsEntry("modes", Map.of("configmaps", "sharded"))
			.containsEntry("publishing", true);
		assertThat(delivery.get("sharding")).asInstanceOf(InstanceOfAssertFactories.MAP)
			.containsEntry("members", List.of("pod-a", "pod-b"))
			.containsEntry("ownedRanges", List.of("shardRange(0x0,0x8000000000000000)"))
			.containsEntry("serverSharding", true);
		this.clock.advance(Duration.ofSeconds(16));
		DeliverySnapshot expired = new DeliverySnapshot("orders", "pod-a", "apps",
				Map.of("configmaps", DeliveryMode.SHARDED), null, new DeliverySnapshot.Sharding(DeliveryRole.DETACHED,
						"orders-pod-a", List.of("pod-b"), List.of(), true, now, 2),
				this.clock.instant());
		InformersEndpoint later = new InformersEndpoint(new DefaultInformerRegistry(List.of(this.informer)),
				new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60)), this.clock, () -> expired,
				new DeliveryHealthPolicy(Duration.ofSeconds(15), Duration.ofSeconds(60)));
		assertThat(later.informers().delivery()).containsEntry("status", "DOWN")
			.containsEntry("reason", "LeaseExpired")
			.containsEntry("publishing", false);
	}

	@Test
	void withoutSharedDeliveryThereIsNoDeliverySection() {
		assertThat(this.endpoint.informers().delivery()).isNull();
		DeliverySnapshot all = new DeliverySnapshot("informers", "pod-a", "default",
				Map.of("configmaps", DeliveryMode.ALL), null, null, this.clock.instant());
		InformersEndpoint endpoint = new InformersEndpoint(new DefaultInformerRegistry(List.of(this.informer)),
				new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60)), this.clock, () -> all,
				new DeliveryHealthPolicy(Duration.ofSeconds(15), Duration.ofSeconds(60)));
		assertThat(endpoint.informers().delivery()).isNull();
	}

	@Test
	void anUnknownInformerIsNotFound() {
		assertThat(this.endpoint.informer("secrets")).isNull();
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> this.endpoint.act("secrets", "relist"))
			.withMessage("No informer named 'secrets'; informers: configmaps");
	}

	@Test
	void onlyRelistIsAnAction() {
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> this.endpoint.act("configmaps", "restart"))
			.withMessage("Unknown action 'restart' for informer 'configmaps'; actions: relist");
	}

	@Test
	void anInformerThatIsNotRunningCannotRelist() {
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> this.endpoint.act("configmaps", "relist"))
			.withMessage("Informer 'configmaps' is not running");
	}

}
