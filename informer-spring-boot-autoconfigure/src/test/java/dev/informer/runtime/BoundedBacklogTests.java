package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.InformerState;
import dev.informer.metrics.InformerMetrics;
import dev.informer.runtime.listeners.BacklogOptions;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchHealth;
import dev.informer.watch.WatchHealthPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code informer.listeners.max-backlog} on a running informer: with {@code coalesce} the
 * watch is {@code OUT_OF_SERVICE} while its listeners are at the bound, the meter counts
 * the folded changes, and the listeners end with the server's state; with {@code fail}
 * the watch stops and is {@code DOWN} with reason {@code BacklogOverflow}.
 */
class BoundedBacklogTests {

	private static final String NAMESPACE = "bounded";

	@AutoClose
	private final InformerMock mock = new InformerMock();

	private final GatedListener slow = new GatedListener(true);

	private final WatchHealthPolicy health = new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60));

	private ResourceInformer<ConfigMap> informer;

	@AfterEach
	void stop() {
		this.slow.open();
	}

	@Test
	void coalescingKeepsTheBacklogAtTheBoundAndListenersEndWithTheServersState() throws Exception {
		start(new BacklogOptions(10, BacklogOptions.Overflow.COALESCE));
		Watch watch = this.informer.getWatches().get(0);
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		new InformerMetrics(new DefaultInformerRegistry(List.of(this.informer))).bindTo(meters);
		create("held");
		await().until(this.slow::isWaiting);
		for (int i = 0; i < 20; i++) {
			create("cm-" + i);
		}
		for (int round = 0; round < 3; round++) {
			for (int i = 0; i < 20; i++) {
				update("cm-" + i, round);
			}
		}
		await().until(() -> cachedState().equals(serverState()));
		assertThat(watch.snapshot().cache().backlog()).isLessThanOrEqualTo(10 + 21);
		assertThat(this.health.evaluate(this.informer, watch.snapshot(), Clock.systemUTC().instant()))
			.isEqualTo(new WatchHealth(WatchHealth.Level.OUT_OF_SERVICE, WatchHealthPolicy.BACKLOGGED));
		this.slow.open();
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			assertThat(this.slow.view()).isEqualTo(serverState());
			assertThat(watch.snapshot().cache().backlog()).isZero();
		});
		assertThat(this.slow.violations()).isEmpty();
		assertThat(watch.snapshot().cache().coalesced()).isPositive();
		assertThat(meters.get("informer.events.coalesced").functionCounter().count())
			.isEqualTo(watch.snapshot().cache().coalesced());
		// the watch is not sampled in this test: UP, as a watch whose loss just began
		assertThat(this.health.evaluate(this.informer, watch.snapshot(), Clock.systemUTC().instant()).level())
			.isEqualTo(WatchHealth.Level.UP);
	}

	@Test
	void failingStopsTheWatchAndSaysWhy() throws Exception {
		start(new BacklogOptions(5, BacklogOptions.Overflow.FAIL));
		Watch watch = this.informer.getWatches().get(0);
		create("held");
		await().until(this.slow::isWaiting);
		for (int i = 0; i < 10; i++) {
			create("cm-" + i);
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> watch.getState() == InformerState.FAILED);
		assertThat(watch.getLastError().reason()).isEqualTo(WatchHealthPolicy.BACKLOG_OVERFLOW);
		assertThat(watch.getLastError().message()).contains("informer.listeners.max-backlog is 5",
				"informer.listeners.overflow is 'fail'");
		assertThat(this.health.evaluate(this.informer, watch.snapshot(), Clock.systemUTC().instant()))
			.isEqualTo(new WatchHealth(WatchHealth.Level.DOWN, WatchHealthPolicy.BACKLOG_OVERFLOW));
		// what waited was dropped
		assertThat(watch.snapshot().cache().backlog()).isZero();
	}

	private void start(BacklogOptions backlog) throws Exception {
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener(this.slow);
		InformerDeclaration declaration = InformerDeclaration.builder("configmaps")
			.apiVersion("v1")
			.kind("ConfigMap")
			.namespaces(List.of(NAMESPACE))
			.build();
		this.informer = this.mock
			.stopping(new ResourceInformer<>(new InformerDefinition<>(declaration, ConfigMap.class, "configmaps", true),
					publisher, RetryPolicy.standard(false), RecoveryOptions.DEFAULT, Clock.systemUTC()));
		this.informer.setBacklog(backlog);
		this.informer.start(this.mock.client(), List.of()).get(30, TimeUnit.SECONDS);
	}

	private void create(String name) {
		// the CRUD mock stalls while a closed watch drains: a create fabric8 retries
		// after a timeout may find the object it made the first time
		this.mock.client()
			.configMaps()
			.resource(TestResources.configMap(NAMESPACE, name, "0"))
			.createOr(NonDeletingOperation::update);
	}

	private void update(String name, int round) {
		ConfigMap current = this.mock.client().configMaps().inNamespace(NAMESPACE).withName(name).get();
		this.mock.client()
			.configMaps()
			.resource(new ConfigMapBuilder(current).withData(Map.of("value", "round-" + round)).build())
			.update();
	}

	private Map<String, String> serverState() {
		return this.mock.client()
			.configMaps()
			.inNamespace(NAMESPACE)
			.list()
			.getItems()
			.stream()
			.collect(Collectors.toMap((cm) -> cm.getMetadata().getName(),
					(cm) -> cm.getMetadata().getResourceVersion()));
	}

	private Map<String, String> cachedState() {
		return this.informer.getCache()
			.list()
			.stream()
			.collect(Collectors.toMap((cm) -> cm.getMetadata().getName(),
					(cm) -> cm.getMetadata().getResourceVersion()));
	}

}
