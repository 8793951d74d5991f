package dev.informer.endpoint;

import java.time.Duration;
import java.util.List;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.TestWatches;
import dev.informer.test.MutableClock;
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
