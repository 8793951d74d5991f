package dev.informer.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A relist while listeners are behind: several queued changes of one object, a delete
 * among them, an event in a listener's hands. Whatever the listeners were doing, each
 * change reaches each listener once, in order, one call at a time, and never interrupted.
 */
class RelistDuringBacklogTests {

	private static final String NAMESPACE = "backlog";

	@AutoClose
	private final InformerMock mock = new InformerMock();

	private final GatedListener slow = new GatedListener(true);

	private final GatedListener fast = new GatedListener(false);

	private ResourceInformer<ConfigMap> informer;

	@AfterEach
	void stop() {
		this.slow.open();
	}

	@Test
	void aRelistWhileAListenerIsBehindNeitherLosesNorRepeatsAChange() throws Exception {
		relistWhileBehind();
		awaitQuiet();
		assertThat(this.slow.violations()).isEmpty();
		assertThat(this.fast.violations()).isEmpty();
		assertThat(this.slow.view()).isEqualTo(serverState());
		assertThat(this.fast.view()).isEqualTo(serverState());
	}

	@Test
	void aRelistNeitherInterruptsAListenerNorKeepsTheEventFromLaterListeners() throws Exception {
		relistWhileBehind();
		awaitQuiet();
		assertThat(this.slow.violations()).noneMatch((violation) -> violation.startsWith("interrupted"));
		// the event the slow listener had in hand reaches the listener after it
		assertThat(this.fast.received()).containsSubsequence("Added e@" + version("e", 0),
				"Updated e@" + version("e", 1));
		assertThat(this.fast.received()).isEqualTo(this.slow.received());
	}

	@Test
	void aRelistNeverRunsAListenerConcurrentlyWithItself() throws Exception {
		relistWhileBehind();
		awaitQuiet();
		assertThat(this.slow.violations()).noneMatch((violation) -> violation.startsWith("called concurrently"));
		assertThat(this.fast.violations()).noneMatch((violation) -> violation.startsWith("called concurrently"));
	}

	@Test
	void sampleWatchesNeverWaitsForARelistWhileAListenerIsBusy() throws Exception {
		start(new RecoveryOptions(Duration.ofMinutes(2), Duration.ofMillis(250), 0.5,
				RecoveryOptions.backOff(Duration.ofSeconds(1), Duration.ofMinutes(5))));
		create("a");
		await().until(() -> this.slow.isWaiting());
		Thread relisting = new Thread(() -> this.informer.relist(), "test-relist");
		List<String> waits = new ArrayList<>();
		relisting.start();
		// what health probes and the watch monitor do, while the relist runs
		Thread probing = new Thread(() -> {
			while (relisting.isAlive()) {
				this.informer.sampleWatches();
			}
		}, "test-probe");
		probing.start();
		while (probing.isAlive()) {
			ThreadInfo info = ManagementFactory.getThreadMXBean().getThreadInfo(probing.getId());
			if (info != null && info.getLockOwnerId() == relisting.getId()) {
				waits.add(info.getThreadState() + " on " + info.getLockName());
			}
			if (waits.size() > 10) {
				break;
			}
		}
		this.slow.open();
		probing.join(TimeUnit.SECONDS.toMillis(30));
		assertThat(waits).as("the probe waited for the relisting thread").isEmpty();
	}

	@Test
	void resyncsQueuedBehindASlowListenerCountInTheBacklog() throws Exception {
		create("a");
		create("b");
		create("c");
		this.slow.allow(3);
		start(RecoveryOptions.DEFAULT, Duration.ofSeconds(1));
		Watch status = this.informer.getWatches().get(0);
		// the slow listener takes no more events: each resync cycle queues behind it
		await().atMost(Duration.ofSeconds(20)).until(() -> status.snapshot().cache().backlog() >= 3);
		this.slow.open();
		await().atMost(Duration.ofSeconds(20)).until(() -> status.snapshot().resync().cycles() >= 1);
	}

	/**
	 * Two objects are listed; then, with the slow listener holding back: e is added and
	 * updated, a updated, b deleted, d added and deleted. The slow listener takes the add
	 * of e and holds the update of e when the relist is asked for.
	 */
	private void relistWhileBehind() throws Exception {
		create("a");
		create("b");
		this.slow.allow(2);
		start(RecoveryOptions.DEFAULT);
		create("e");
		update("e");
		update("a");
		this.mock.client().configMaps().inNamespace(NAMESPACE).withName("b").delete();
		create("d");
		this.mock.client().configMaps().inNamespace(NAMESPACE).withName("d").delete();
		await().until(() -> cachedState().equals(serverState()));
		this.slow.allow(1);
		await().until(() -> this.slow.isWaiting() && this.slow.received().size() == 3);
		CompletableFuture<CompletableFuture<Void>> asked = CompletableFuture.supplyAsync(() -> this.informer.relist());
		// held until the new informer has listed: whatever it delivers meanwhile must
		// wait for the event in the slow listener's hands
		Watch status = this.informer.getWatches().get(0);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> asked.isDone() && status.snapshot().cache().lastResourceVersion() != null);
		CompletableFuture<Void> relisted = asked.get();
		this.slow.open();
		relisted.get(30, TimeUnit.SECONDS);
	}

	private void awaitQuiet() {
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			assertThat(this.slow.view()).isEqualTo(serverState());
			assertThat(this.fast.view()).isEqualTo(serverState());
			assertThat(this.informer.getWatches().get(0).snapshot().cache().backlog()).isZero();
		});
	}

	private void start(RecoveryOptions recovery) throws Exception {
		start(recovery, Duration.ZERO);
	}

	private void start(RecoveryOptions recovery, Duration resyncPeriod) throws Exception {
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener(this.slow);
		publisher.addListener(this.fast);
		InformerDeclaration declaration = InformerDeclaration.builder("configmaps")
			.apiVersion("v1")
			.kind("ConfigMap")
			.namespaces(List.of(NAMESPACE))
			.resyncPeriod(resyncPeriod)
			.build();
		this.informer = this.mock
			.stopping(new ResourceInformer<>(new InformerDefinition<>(declaration, ConfigMap.class, "configmaps", true),
					publisher, RetryPolicy.standard(false), recovery, Clock.systemUTC()));
		this.informer.start(this.mock.client(), List.of()).get(30, TimeUnit.SECONDS);
	}

	private final Map<String, List<String>> versions = new java.util.concurrent.ConcurrentHashMap<>();

	private void create(String name) {
		ConfigMap created = this.mock.client()
			.configMaps()
			.resource(TestResources.configMap(NAMESPACE, name, "0"))
			.create();
		this.versions.computeIfAbsent(name, (key) -> new ArrayList<>()).add(created.getMetadata().getResourceVersion());
	}

	private void update(String name) {
		ConfigMap current = this.mock.client().configMaps().inNamespace(NAMESPACE).withName(name).get();
		ConfigMap updated = this.mock.client()
			.configMaps()
			.resource(new ConfigMapBuilder(current).withData(Map.of("value", "updated")).build())
			.update();
		this.versions.get(name).add(updated.getMetadata().getResourceVersion());
	}

	private String version(String name, int index) {
		return this.versions.get(name).get(index);
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
