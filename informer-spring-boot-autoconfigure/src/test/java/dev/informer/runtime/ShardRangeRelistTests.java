package dev.informer.runtime;

import java.time.Instant;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.ConfigMapListBuilder;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import dev.informer.runtime.HandoverDeletesTests.ContractMap;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.replicas.DeliveryGate;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With the API server's shard selectors, a replica whose range changes relists with the
 * new range: its list no longer holds the objects of the range it gave up. They left the
 * list, they were not deleted: no replica may deliver a delete of them, neither at once
 * nor later as a tombstone when the range comes back (issue 32,
 * {@code ShardedFaultIT.aBlipDuringARangeChangeLosesNothing[server sharding]}).
 */
class ShardRangeRelistTests {

	@AutoClose
	private final InformerMock mock = new InformerMock();

	private final AtomicReference<Set<String>> range = new AtomicReference<>(Set.of("a1", "a2", "b1"));

	private final AtomicReference<String> selector = new AtomicReference<>();

	private final ContractMap listener = new ContractMap();

	private ResourceInformer<ConfigMap> informer;

	@Test
	void objectsThatLeaveTheRangeOfARelistAreNeverDeliveredAsDeleted() throws Exception {
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener(this.listener);
		this.informer = this.mock.stopping(TestWatches.configMaps(Clock.systemUTC(), publisher, Duration.ZERO, "apps"));
		this.informer.deliverThrough((resource) -> this.range.get().contains(resource.getMetadata().getName())
				? DeliveryGate.Verdict.PUBLISH : DeliveryGate.Verdict.NOT_OURS, this.selector::get);
		ConfigMap a1 = create("a1");
		ConfigMap a2 = create("a2");
		create("b1");
		this.informer.start(this.mock.client(), List.of()).get(10, TimeUnit.SECONDS);
		await().until(() -> this.listener.view().size() == 3);
		// the range shrinks to a1 and a2: the server lists only those for its selector
		ConfigMapList shard = new ConfigMapListBuilder().withNewMetadata()
			.withResourceVersion(a2.getMetadata().getResourceVersion())
			.endMetadata()
			.withItems(a1, a2)
			.build();
		this.mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces/apps/configmaps?shardSelector=shrunk")
			.andReturn(200, shard)
			.always();
		this.selector.set("shrunk");
		this.range.set(Set.of("a1", "a2"));
		this.informer.relistForRange((resource) -> true, Instant.EPOCH);
		await().until(() -> this.listener.replays() == 1);
		// and grows again: b1 is replayed to it
		this.selector.set(null);
		this.range.set(Set.of("a1", "a2", "b1"));
		this.informer.relistForRange((resource) -> !resource.getMetadata().getName().equals("b1"), Instant.EPOCH);
		await().until(() -> this.listener.replays() == 2);
		assertThat(this.listener.received()).as("what the listener received")
			.noneMatch((event) -> event.startsWith("delete") || event.startsWith("replayed delete"));
		assertThat(this.listener.view()).containsOnlyKeys("a1", "a2", "b1");
	}

	private ConfigMap create(String name) {
		return this.mock.client().configMaps().resource(TestResources.configMap("apps", name, "v")).create();
	}

}
