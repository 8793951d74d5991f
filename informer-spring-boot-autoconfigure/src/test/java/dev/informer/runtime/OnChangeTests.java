package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapListBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.runtime.replicas.DeliveryGate;
import dev.informer.test.TestResources;
import dev.informer.watch.WatchDetails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The semantics of {@code on-change} through a real list and watch of fabric8's mock API
 * server: what is held back, what an update carries as its old state, and how relists and
 * resyncs meet the filter. The informer compares {@code labels}; data edits are the
 * noise.
 */
class OnChangeTests {

	@AutoClose
	private final InformerMock mock = new InformerMock();

	private final List<ApplicationEvent> events = new CopyOnWriteArrayList<>();

	private ResourceInformer<ConfigMap> informer;

	private final AtomicReference<DeliveryGate> gate = new AtomicReference<>(DeliveryGate.ALL);

	@Test
	void updatesThatChangeNoDeclaredPartAreCachedCountedAndNotDelivered() throws Exception {
		create("noisy", "0");
		start(Duration.ZERO);
		editData("noisy", "1");
		editData("noisy", "2");
		await().until(() -> data(this.informer.getCache().get("changes", "noisy").orElseThrow()).equals("2"));
		label("noisy", "blue");
		await().until(() -> updates().size() == 1);
		ResourceUpdatedEvent<?> update = updates().get(0);
		// the last state delivered (the add), not the previous cached state
		assertThat(data((ConfigMap) update.getOldResource())).isEqualTo("0");
		assertThat(((ConfigMap) update.getOldResource()).getMetadata().getLabels()).doesNotContainKey("colour");
		assertThat(data((ConfigMap) update.getResource())).isEqualTo("2");
		assertThat(((ConfigMap) update.getResource()).getMetadata().getLabels()).containsEntry("colour", "blue");
		assertThat(this.informer.getWatches().get(0).snapshot().events().filtered()).isEqualTo(2);
		// as health and the endpoint show it
		assertThat(WatchDetails.of(this.informer, this.informer.getWatches().get(0).snapshot()))
			.containsEntry("filteredEvents", 2L);
		assertThat(this.informer.getWatches().get(0).snapshot().events().count(dev.informer.watch.EventType.UPDATED))
			.isEqualTo(1);
	}

	@Test
	void addsAndDeletesAreAlwaysDelivered() throws Exception {
		start(Duration.ZERO);
		create("short-lived", "0");
		editData("short-lived", "1");
		this.mock.client().configMaps().inNamespace("changes").withName("short-lived").delete();
		await().until(() -> resourceEvents().size() == 2);
		assertThat(resourceEvents()).extracting((event) -> event.getClass().getSimpleName())
			.containsExactly("ResourceAddedEvent", "ResourceDeletedEvent");
		assertThat(this.informer.getWatches().get(0).snapshot().events().filtered()).isEqualTo(1);
	}

	@Test
	void aChangeAfterADeliveredOneCarriesThatOneAsOld() throws Exception {
		create("twice", "0");
		start(Duration.ZERO);
		label("twice", "blue");
		editData("twice", "1");
		label("twice", "green");
		await().until(() -> updates().size() == 2);
		ConfigMap old = (ConfigMap) updates().get(1).getOldResource();
		assertThat(old.getMetadata().getLabels()).containsEntry("colour", "blue");
		assertThat(data(old)).isEqualTo("0");
	}

	@Test
	void resyncsAreDeliveredAndLeaveTheLastDeliveredState() throws Exception {
		create("resynced", "0");
		start(Duration.ofSeconds(1));
		editData("resynced", "1");
		await().until(() -> updates().stream().anyMatch(ResourceUpdatedEvent::isResync));
		ResourceUpdatedEvent<?> resync = updates().stream().filter(ResourceUpdatedEvent::isResync).findFirst().get();
		assertThat(data((ConfigMap) resync.getResource())).isEqualTo("1");
		label("resynced", "blue");
		await().until(() -> updates().stream().anyMatch((update) -> !update.isResync()));
		ResourceUpdatedEvent<?> change = updates().stream().filter((update) -> !update.isResync()).findFirst().get();
		assertThat(data((ConfigMap) change.getOldResource())).isEqualTo("0");
	}

	/**
	 * The relist's list (answered by an expectation, as in
	 * {@link ResourceInformerRelistTests}) carries changes no watch reported: a data
	 * edit, a label edit and a vanished object.
	 */
	@Test
	void aRelistComparesWithTheLastDeliveredStateAndStillDeliversItsDeletes() throws Exception {
		ConfigMap quiet = create("quiet", "0");
		ConfigMap relabelled = create("relabelled", "0");
		ConfigMap vanished = create("vanished", "0");
		String serverVersion = vanished.getMetadata().getResourceVersion();
		watch(serverVersion);
		watch(serverVersion);
		start(Duration.ZERO);
		ConfigMap quietLater = withVersion(new ConfigMapBuilder(quiet).withData(Map.of("value", "1")).build(),
				quiet.getMetadata().getResourceVersion() + "-data");
		ConfigMap relabelledLater = withVersion(new ConfigMapBuilder(relabelled).editMetadata()
			.withLabels(Map.of("colour", "blue"))
			.endMetadata()
			.withData(Map.of("value", "1"))
			.build(), relabelled.getMetadata().getResourceVersion() + "-labels");
		this.mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces/changes/configmaps")
			.andReturn(200,
					new ConfigMapListBuilder().withNewMetadata()
						.withResourceVersion(serverVersion)
						.endMetadata()
						.withItems(quietLater, relabelledLater)
						.build())
			.once();
		this.events.clear();
		this.informer.relist().get(10, TimeUnit.SECONDS);
		await().until(() -> resourceEvents().size() >= 2);
		assertThat(resourceEvents()).extracting((event) -> event.getClass().getSimpleName() + " " + event.getName())
			.containsExactlyInAnyOrder("ResourceUpdatedEvent relabelled", "ResourceDeletedEvent vanished");
		assertThat(((ResourceDeletedEvent<?>) resourceEvents().stream()
			.filter(ResourceDeletedEvent.class::isInstance)
			.findFirst()
			.get()).isFinalStateUnknown()).isTrue();
		assertThat(data((ConfigMap) updates().get(0).getOldResource())).isEqualTo("0");
		assertThat(data(this.informer.getCache().get("changes", "quiet").orElseThrow())).isEqualTo("1");
		assertThat(this.informer.getWatches().get(0).snapshot().events().filtered()).isEqualTo(1);
	}

	/**
	 * Issue 32, point 2: the gate keeps a relevant update from listeners while the Lease
	 * has lapsed, and a relist (a replacement) is seeded with what listeners saw. The
	 * filter's memory must still be what listeners saw, so the relist's update is
	 * relevant and delivered.
	 */
	@Test
	void anUpdateTheGateKeptBackDuringALapseIsDeliveredByTheNextRelist() throws Exception {
		create("kept", "0");
		label("kept", "red");
		start(Duration.ZERO);
		this.gate.set((resource) -> DeliveryGate.Verdict.LAPSED);
		label("kept", "blue");
		awaitCached("kept", (cm) -> "blue".equals(cm.getMetadata().getLabels().get("colour")));
		this.gate.set(DeliveryGate.ALL);
		this.informer.relist().get(10, TimeUnit.SECONDS);
		await().untilAsserted(() -> assertThat(updates()).as("the update kept back by the lapse")
			.singleElement()
			.satisfies((update) -> {
				assertThat(((ConfigMap) update.getResource()).getMetadata().getLabels()).containsEntry("colour",
						"blue");
				assertThat(((ConfigMap) update.getOldResource()).getMetadata().getLabels()).containsEntry("colour",
						"red");
			}));
	}

	/**
	 * Issue 32, point 9: a replay hands listeners the cached state, past updates the
	 * filter held back; the next update carries that replayed state as its old one.
	 */
	@Test
	void aReplayedStateIsWhatTheNextUpdateCarriesAsOld() throws Exception {
		create("replayed", "0");
		start(Duration.ZERO);
		editData("replayed", "1");
		awaitCached("replayed", (cm) -> data(cm).equals("1"));
		this.informer.replay((resource) -> true, "leader");
		await().until(() -> resourceEvents().stream()
			.anyMatch((event) -> event instanceof ResourceAddedEvent<?> added && added.isReplay()));
		label("replayed", "blue");
		await().until(() -> updates().size() == 1);
		assertThat(data((ConfigMap) updates().get(0).getOldResource())).as("the old state is the replayed one")
			.isEqualTo("1");
	}

	/**
	 * Issue 32, point 3: a relist finds an object deleted and created again under the
	 * same name (a new uid) with equal labels. It is a delete of the old uid then an add
	 * of the new, never filtered, and a gate judges each on its own: here the replica
	 * owns only the old uid (as a shard owner would), so it delivers the delete only.
	 */
	@Test
	void aRelistThatFindsANewUidIsADeleteOfTheOldThenAnAddOfTheNewJudgedEachOnItsOwn() throws Exception {
		ConfigMap recreated = create("recreated", "0");
		String oldUid = recreated.getMetadata().getUid();
		String serverVersion = recreated.getMetadata().getResourceVersion();
		watch(serverVersion);
		watch(serverVersion);
		start(Duration.ZERO);
		ConfigMap again = new ConfigMapBuilder(recreated).editMetadata()
			.withUid(oldUid + "-again")
			.withResourceVersion(serverVersion + "-again")
			.endMetadata()
			.withData(Map.of("value", "1"))
			.build();
		this.mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces/changes/configmaps")
			.andReturn(200,
					new ConfigMapListBuilder().withNewMetadata()
						.withResourceVersion(serverVersion)
						.endMetadata()
						.withItems(again)
						.build())
			.once();
		this.events.clear();
		this.gate.set((resource) -> oldUid.equals(resource.getMetadata().getUid()) ? DeliveryGate.Verdict.PUBLISH
				: DeliveryGate.Verdict.NOT_OURS);
		this.informer.relist().get(10, TimeUnit.SECONDS);
		assertThat(resourceEvents()).as("the old uid's owner")
			.extracting((event) -> event.getClass().getSimpleName() + " " + event.getResource().getMetadata().getUid())
			.containsExactly("ResourceDeletedEvent " + oldUid);
		this.events.clear();
		this.gate.set(DeliveryGate.ALL);
		this.informer.replay((resource) -> true, "shard-range");
		await().until(() -> !resourceEvents().isEmpty());
		assertThat(resourceEvents()).as("the new uid, as the replica that owns it delivers it")
			.extracting((event) -> event.getClass().getSimpleName() + " " + event.getResource().getMetadata().getUid())
			.containsExactly("ResourceAddedEvent " + oldUid + "-again");
	}

	/**
	 * Issue 32, point 3, with every uid published: a delete then an add, in that order,
	 * whatever {@code on-change} compares.
	 */
	@Test
	void aRelistThatFindsANewUidDeliversADeleteThenAnAddWhateverTheFilter() throws Exception {
		ConfigMap recreated = create("recreated", "0");
		String serverVersion = recreated.getMetadata().getResourceVersion();
		watch(serverVersion);
		watch(serverVersion);
		start(Duration.ZERO);
		ConfigMap again = new ConfigMapBuilder(recreated).editMetadata()
			.withUid(recreated.getMetadata().getUid() + "-again")
			.withResourceVersion(serverVersion + "-again")
			.endMetadata()
			.build();
		this.mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces/changes/configmaps")
			.andReturn(200,
					new ConfigMapListBuilder().withNewMetadata()
						.withResourceVersion(serverVersion)
						.endMetadata()
						.withItems(again)
						.build())
			.once();
		this.events.clear();
		this.informer.relist().get(10, TimeUnit.SECONDS);
		assertThat(resourceEvents())
			.extracting((event) -> event.getClass().getSimpleName() + " " + event.getResource().getMetadata().getUid())
			.containsExactly("ResourceDeletedEvent " + recreated.getMetadata().getUid(),
					"ResourceAddedEvent " + again.getMetadata().getUid());
		assertThat(((ResourceDeletedEvent<?>) resourceEvents().get(0)).isFinalStateUnknown()).isTrue();
	}

	private void awaitCached(String name, Predicate<ConfigMap> state) {
		await().until(() -> this.informer.getCache().get("changes", name).filter(state).isPresent()
				&& this.informer.getWatches().get(0).snapshot().cache().backlog() == 0);
	}

	private void start(Duration resyncPeriod) throws Exception {
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener((ApplicationListener<ApplicationEvent>) this.events::add);
		InformerDeclaration declaration = InformerDeclaration.builder("configmaps")
			.apiVersion("v1")
			.kind("ConfigMap")
			.namespaces(List.of("changes"))
			.resyncPeriod(resyncPeriod)
			.onChange(List.of("labels"))
			.build();
		this.informer = this.mock
			.stopping(new ResourceInformer<>(new InformerDefinition<>(declaration, ConfigMap.class, "configmaps", true),
					publisher, RetryPolicy.standard(false), Clock.systemUTC()));
		this.informer.deliverThrough((resource) -> this.gate.get().verdict(resource), () -> null);
		this.informer.start(this.mock.client(), List.of()).get(10, TimeUnit.SECONDS);
		await().until(() -> resourceEvents().stream()
			.filter(ResourceAddedEvent.class::isInstance)
			.count() == this.mock.client().configMaps().inNamespace("changes").list().getItems().size());
	}

	private void watch(String resourceVersion) {
		this.mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces/changes/configmaps?allowWatchBookmarks=true&resourceVersion="
					+ resourceVersion + "&timeoutSeconds=600&watch=true")
			.andUpgradeToWebSocket()
			.open()
			.expect("never sent")
			.andEmit(new WatchEvent(TestResources.configMap("changes", "unused", "x"), "BOOKMARK"))
			.once()
			.done()
			.once();
	}

	private ConfigMap create(String name, String value) {
		return this.mock.client().configMaps().resource(TestResources.configMap("changes", name, value)).create();
	}

	private void editData(String name, String value) {
		this.mock.client().configMaps().inNamespace("changes").withName(name).edit((cm) -> {
			cm.setData(Map.of("value", value));
			return cm;
		});
	}

	private void label(String name, String colour) {
		this.mock.client().configMaps().inNamespace("changes").withName(name).edit((cm) -> {
			cm.getMetadata().setLabels(Map.of("colour", colour));
			return cm;
		});
	}

	private static ConfigMap withVersion(ConfigMap configMap, String resourceVersion) {
		return new ConfigMapBuilder(configMap).editMetadata()
			.withResourceVersion(resourceVersion)
			.endMetadata()
			.build();
	}

	private static String data(ConfigMap configMap) {
		return configMap.getData().get("value");
	}

	private List<ResourceEvent<?>> resourceEvents() {
		return this.events.stream()
			.filter(ResourceEvent.class::isInstance)
			.<ResourceEvent<?>>map(ResourceEvent.class::cast)
			.toList();
	}

	private List<ResourceUpdatedEvent<?>> updates() {
		return this.events.stream()
			.filter(ResourceUpdatedEvent.class::isInstance)
			.<ResourceUpdatedEvent<?>>map(ResourceUpdatedEvent.class::cast)
			.toList();
	}

}
