package dev.informer.health;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import dev.informer.endpoint.InformersEndpoint;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.TestWatches;
import dev.informer.runtime.WatchMonitor;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.test.MockApiServer;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchHealthPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Only the {@link WatchMonitor} samples watches: health probes and the {@code informers}
 * endpoint read each status as last sampled. Had a probe sampled, each of an informer's
 * namespace indicators would sample every namespace (n² samples per probe), and each of
 * those samples would count in the availability window that judges flapping. The informer
 * watches 50 namespaces of a mock server and no monitor runs, so that any sample a probe
 * took would show: the list ends with the watch not yet seen open, and only a sample sees
 * it open.
 */
class WatchSamplingTests {

	private static final int NAMESPACES = 50;

	private final Clock clock = Clock.systemUTC();

	private final MockApiServer mock = MockApiServer.crud();

	private final ResourceInformer<ConfigMap> informer = TestWatches.configMaps(this.clock,
			IntStream.range(0, NAMESPACES).mapToObj((i) -> "ns-" + i).toArray(String[]::new));

	private final DefaultInformerRegistry registry = new DefaultInformerRegistry(List.of(this.informer));

	private final WatchHealthPolicy policy = new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60));

	@BeforeEach
	void startInformer() {
		this.informer.start(this.mock.client(), List.of()).join();
		// fabric8's own view of the connections, read without sampling
		await().until(this.informer::isWatching);
	}

	@AfterEach
	void stop() {
		this.informer.stop();
		this.mock.close();
	}

	@Test
	void healthProbesTakeNoSampleAndTheMonitorDoes() {
		InformersHealthContributor contributor = new InformersHealthContributor(this.registry, this.policy, this.clock);
		CompositeHealthContributor namespaces = (CompositeHealthContributor) contributor.getContributor("configmaps");
		// enough probes to fill every availability window, had each indicator sampled all
		// namespaces
		int samplesPerWindow = (int) (RecoveryOptions.DEFAULT.availabilityWindow().toMillis()
				/ WatchMonitor.DEFAULT_PERIOD.toMillis());
		int probes = samplesPerWindow / NAMESPACES + 1;
		for (int probe = 0; probe < probes; probe++) {
			assertThat(probe(namespaces)).allMatch((health) -> health.getStatus() == Status.UP);
		}
		assertThat(this.informer.getWatches()).filteredOn((status) -> status.snapshot().availability().share() >= 0)
			.extracting(Watch::getNamespace)
			.as("namespaces with a full availability window after %d probes", probes)
			.isEmpty();
		assertThat(sampledNamespaces()).as("namespaces sampled by %d probes", probes).isEmpty();
		assertThat(probe(namespaces)).allMatch((health) -> "Reconnecting".equals(health.getDetails().get("reason")));
		new WatchMonitor(this.registry, WatchMonitor.DEFAULT_PERIOD).sample();
		assertThat(sampledNamespaces()).hasSize(NAMESPACES);
		assertThat(probe(namespaces)).allMatch((health) -> health.getStatus() == Status.UP)
			.allMatch((health) -> !health.getDetails().containsKey("reason"));
	}

	@Test
	void theEndpointTakesNoSample() {
		InformersEndpoint endpoint = new InformersEndpoint(this.registry, this.policy, this.clock);
		endpoint.informers();
		endpoint.informer("configmaps");
		assertThat(sampledNamespaces()).as("namespaces sampled by the endpoint").isEmpty();
		new WatchMonitor(this.registry, WatchMonitor.DEFAULT_PERIOD).sample();
		assertThat(endpoint.informer("configmaps").watches())
			.allMatch((watch) -> Boolean.TRUE.equals(watch.get("watching")));
	}

	// a sample is the only way a status learns that the watch opened after the list
	private List<String> sampledNamespaces() {
		return this.informer.getWatches().stream().filter(Watch::isWatching).map(Watch::getNamespace).toList();
	}

	private static List<Health> probe(CompositeHealthContributor namespaces) {
		return namespaces.stream().map((entry) -> ((HealthIndicator) entry.contributor()).health()).toList();
	}

}
