package dev.informer.health;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import dev.informer.runtime.CountedSnapshots;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.TestWatches;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.test.MockApiServer;
import dev.informer.test.MutableClock;
import dev.informer.watch.EventType;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchHealthPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Health rules and details, with watch states driven by hand and a clock moved by hand.
 */
class InformersHealthContributorTests {

	private final MutableClock clock = MutableClock.startingAt("2026-01-01T00:00:00Z");

	private final WatchHealthPolicy policy = new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60));

	@Test
	void syncedAndWatchingIsUpWithDetailsButNoResourceData() {
		ResourceInformer<ConfigMap> informer = TestWatches.configMaps(this.clock, "team-a");
		Watch status = informer.getWatches().get(0);
		TestWatches.sync(status, 3);
		TestWatches.watching(status, true);
		TestWatches.delivered(status, EventType.ADDED, 0);
		Health health = health(contributor(informer), "configmaps");
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("state", "WATCHING")
			.containsEntry("apiVersion", "v1")
			.containsEntry("kind", "ConfigMap")
			.containsEntry("namespace", "team-a")
			.containsEntry("synced", true)
			.containsEntry("watching", true)
			.containsEntry("cacheSize", 0)
			.containsEntry("backlog", 0L)
			.containsEntry("reconnects", 0L)
			.containsEntry("listenerFailures", 0L)
			.containsEntry("lastEventAt", "2026-01-01T00:00:00Z")
			.doesNotContainKeys("reason", "lastError", "notWatchingSince", "lastResync");
		assertThat(health.getDetails().get("lastList")).isEqualTo(
				Map.of("startedAt", "2026-01-01T00:00:00Z", "duration", "PT0S", "items", 3, "trigger", "initial"));
		assertThat(health.getDetails().keySet()).allMatch((key) -> !key.contains("data") && !key.contains("spec"));
	}

	@Test
	void aWatchLostForNoLongerThanTheGraceIsUpAndLongerIsDown() {
		ResourceInformer<ConfigMap> informer = TestWatches.configMaps(this.clock, "team-a");
		Watch status = informer.getWatches().get(0);
		TestWatches.sync(status, 0);
		TestWatches.watching(status, true);
		this.clock.advance(Duration.ofMinutes(7));
		TestWatches.watching(status, false);
		InformersHealthContributor contributor = contributor(informer);
		this.clock.advance(Duration.ofSeconds(90));
		Health reconnecting = health(contributor, "configmaps");
		assertThat(reconnecting.getStatus()).isEqualTo(Status.UP);
		assertThat(reconnecting.getDetails()).containsEntry("reason", "Reconnecting")
			.containsEntry("state", "RECONNECTING")
			.containsEntry("watching", false)
			.containsEntry("notWatchingSince", "2026-01-01T00:07:00Z")
			.containsEntry("reconnects", 1L);
		this.clock.advance(Duration.ofSeconds(1));
		Health lost = health(contributor, "configmaps");
		assertThat(lost.getStatus()).isEqualTo(Status.DOWN);
		assertThat(lost.getDetails()).containsEntry("reason", "WatchLost");
		TestWatches.watching(status, true);
		assertThat(health(contributor, "configmaps").getStatus()).isEqualTo(Status.UP);
	}

	@Test
	void forbiddenWhileNotWatchingIsTheReason() {
		ResourceInformer<ConfigMap> informer = TestWatches.configMaps(this.clock, "team-a");
		Watch status = informer.getWatches().get(0);
		TestWatches.sync(status, 0);
		TestWatches.watching(status, true);
		TestWatches.error(status, TestWatches.forbidden());
		InformersHealthContributor contributor = contributor(informer);
		assertThat(health(contributor, "configmaps").getDetails()).containsEntry("reason", "Forbidden");
		this.clock.advance(Duration.ofSeconds(91));
		Health health = health(contributor, "configmaps");
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("reason", "Forbidden");
		assertThat(health.getDetails().get("lastError")).asInstanceOf(InstanceOfAssertFactories.MAP)
			.containsEntry("httpCode", 403)
			.containsEntry("reason", "Forbidden")
			.containsEntry("at", "2026-01-01T00:00:00Z");
		// once the watch is back the old error explains nothing
		TestWatches.watching(status, true);
		this.clock.advance(Duration.ofMinutes(7));
		TestWatches.watching(status, false);
		assertThat(health(contributor, "configmaps").getDetails()).containsEntry("reason", "Reconnecting");
	}

	@Test
	void aFailedInformerIsDown() {
		ResourceInformer<ConfigMap> informer = TestWatches.configMaps(this.clock, "team-a");
		Watch status = informer.getWatches().get(0);
		TestWatches.sync(status, 0);
		TestWatches.fail(status, TestWatches.serverError());
		Health health = health(contributor(informer), "configmaps");
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("state", "FAILED").containsEntry("reason", "InternalError");
	}

	@Test
	void anInformerOfSeveralNamespacesHasOneChildPerNamespace() {
		ResourceInformer<ConfigMap> informer = TestWatches.configMaps(this.clock, "team-a", "team-b");
		ResourceInformer<ConfigMap> all = TestWatches.configMaps(this.clock);
		InformersHealthContributor contributor = new InformersHealthContributor(
				new DefaultInformerRegistry(List.of(informer)), this.policy, this.clock);
		HealthContributor child = contributor.getContributor("configmaps");
		assertThat(child).isInstanceOf(CompositeHealthContributor.class);
		CompositeHealthContributor namespaces = (CompositeHealthContributor) child;
		assertThat(namespaces.stream().map(CompositeHealthContributor.Entry::name)).containsExactly("team-a", "team-b");
		Watch teamB = informer.getWatches().get(1);
		TestWatches.sync(teamB, 0);
		TestWatches.watching(teamB, true);
		assertThat(((HealthIndicator) namespaces.getContributor("team-b")).health().getStatus()).isEqualTo(Status.UP);
		assertThat(((HealthIndicator) namespaces.getContributor("team-a")).health().getDetails())
			.containsEntry("namespace", "team-a");
		assertThat(contributor.getContributor("secrets")).isNull();
		InformersHealthContributor allNamespaces = contributor(all);
		assertThat(allNamespaces.stream().map(CompositeHealthContributor.Entry::name)).containsExactly("configmaps");
		assertThat(health(allNamespaces, "configmaps").getDetails()).containsEntry("namespace", "*");
	}

	@Test
	void aProbeTakesOneSnapshotOfEachWatch() {
		CountedSnapshots registry = new CountedSnapshots(TestWatches.configMaps(this.clock, "team-a", "team-b"), null);
		InformersHealthContributor contributor = new InformersHealthContributor(registry, this.policy, this.clock);
		CompositeHealthContributor namespaces = (CompositeHealthContributor) contributor.getContributor("configmaps");
		assertThat(((HealthIndicator) namespaces.getContributor("team-a")).health().getStatus())
			.isEqualTo(Status.OUT_OF_SERVICE);
		assertThat(registry.watch(0).snapshots()).isOne();
		assertThat(registry.watch(1).snapshots()).isZero();
	}

	@Test
	void theWatchOnNamespacesOfASelectorHasItsOwnChildFromOneSnapshot() {
		WatchStatus namespaces = new WatchStatus(null, Duration.ZERO, this.clock,
				(status, previous, current, cause) -> {
				});
		CountedSnapshots registry = new CountedSnapshots(TestWatches.selectedConfigMaps(this.clock, "tenant=acme"),
				namespaces);
		InformersHealthContributor contributor = new InformersHealthContributor(registry, this.policy, this.clock);
		HealthContributor selector = ((CompositeHealthContributor) contributor.getContributor("tenants"))
			.getContributor(InformersHealthContributor.NAMESPACE_SELECTOR);
		Health health = ((HealthIndicator) selector).health();
		assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
		assertThat(health.getDetails()).containsEntry("kind", "Namespace")
			.containsEntry("namespaceSelector", "tenant=acme")
			.containsEntry("state", "STARTING")
			.containsEntry("reason", "NotStarted");
		assertThat(registry.namespaceWatch().snapshots()).isOne();
	}

	@Test
	void beforeTheFirstSyncItIsOutOfServiceAndDownOnceTheStartupTimeoutHasPassed() {
		ResourceInformer<ConfigMap> informer = TestWatches.configMaps(this.clock, "locked");
		InformersHealthContributor contributor = contributor(informer);
		assertThat(health(contributor, "configmaps").getDetails()).containsEntry("reason", "NotStarted");
		try (MockApiServer mock = MockApiServer.expectations()) {
			mock.server()
				.expect()
				.get()
				.withPath("/api/v1/namespaces/locked/configmaps?resourceVersion=0")
				.andReturn(403, new StatusBuilder().withCode(403).withReason("Forbidden").withMessage("denied").build())
				.always();
			informer.start(mock.client(), List.of());
			Watch status = informer.getWatches().get(0);
			await().until(() -> status.getLastError() != null);
			Health starting = health(contributor, "configmaps");
			assertThat(starting.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
			assertThat(starting.getDetails()).containsEntry("reason", "Forbidden").containsEntry("synced", false);
			this.clock.advance(Duration.ofSeconds(61));
			Health late = health(contributor, "configmaps");
			assertThat(late.getStatus()).isEqualTo(Status.DOWN);
			assertThat(late.getDetails()).containsEntry("reason", "Forbidden");
			informer.stop();
			assertThat(health(contributor, "configmaps").getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
		}
	}

	private InformersHealthContributor contributor(ResourceInformer<?> informer) {
		return new InformersHealthContributor(new DefaultInformerRegistry(List.of(informer)), this.policy, this.clock);
	}

	private static Health health(InformersHealthContributor contributor, String name) {
		HealthContributor child = contributor.getContributor(name);
		assertThat(child).isInstanceOf(HealthIndicator.class);
		return ((HealthIndicator) child).health();
	}

}
