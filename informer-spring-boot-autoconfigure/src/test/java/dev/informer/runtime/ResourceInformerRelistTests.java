package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapListBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.event.InformerStateChangedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.test.TestResources;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * A relist replaces the fabric8 informer by one seeded with what listeners have seen and
 * delivers only the differences. The mock server answers the relist's list (which, unlike
 * the first list, is not served from the watch cache) with changes no watch reported.
 * Watches are expectations rather than CRUD watches: the mock stalls for 10 s when a
 * client closes a CRUD watch, which a relist does.
 */
class ResourceInformerRelistTests {

	@AutoClose
	private final InformerMock mock = new InformerMock();

	private final List<ApplicationEvent> events = new CopyOnWriteArrayList<>();

	private ResourceInformer<ConfigMap> informer;

	@Test
	void aRelistDeliversOnlyTheDifferencesAndTheNewWatchCarriesOn() throws Exception {
		ConfigMap kept = create("kept", "1");
		ConfigMap changed = create("changed", "1");
		ConfigMap vanished = create("vanished", "1");
		// resourceVersions are opaque to fabric8, which only compares them; lists carry
		// the server's version, so that watches resume from it
		String serverVersion = vanished.getMetadata().getResourceVersion();
		ConfigMap later = withVersion(TestResources.configMap("relist", "later", "1"), serverVersion + "-later");
		watch(serverVersion, false);
		watch(serverVersion, false, new WatchEvent(later, "ADDED"));
		start();
		ConfigMap changedLater = withVersion(new ConfigMapBuilder(changed).withData(Map.of("value", "2")).build(),
				changed.getMetadata().getResourceVersion() + "-changed");
		ConfigMap born = withVersion(TestResources.configMap("relist", "born", "1"), serverVersion + "-born");
		this.mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces/relist/configmaps")
			.andReturn(200,
					new ConfigMapListBuilder().withNewMetadata()
						.withResourceVersion(serverVersion)
						.endMetadata()
						.withItems(kept, changedLater, born)
						.build())
			.once();
		this.events.clear();
		this.informer.relist().get(10, TimeUnit.SECONDS);
		await().until(() -> resourceEvents().size() >= 4);
		assertThat(resourceEvents().subList(0, 3))
			.extracting((event) -> event.getClass().getSimpleName() + " " + event.getName())
			.containsExactlyInAnyOrder("ResourceUpdatedEvent changed", "ResourceAddedEvent born",
					"ResourceDeletedEvent vanished");
		ResourceUpdatedEvent<?> update = only(ResourceUpdatedEvent.class);
		assertThat(((ConfigMap) update.getOldResource()).getData()).containsEntry("value", "1");
		assertThat(((ConfigMap) update.getResource()).getData()).containsEntry("value", "2");
		assertThat(only(ResourceDeletedEvent.class).isFinalStateUnknown()).isTrue();
		// the replacement informer watches on
		assertThat(resourceEvents().get(3)).isInstanceOf(ResourceAddedEvent.class)
			.extracting(ResourceEvent::getName)
			.isEqualTo("later");
		assertThat(this.informer.getCache().list()).extracting((cm) -> cm.getMetadata().getName())
			.containsExactlyInAnyOrder("kept", "changed", "born", "later");
		Watch status = this.informer.getWatches().get(0);
		assertThat(status.snapshot().lists().relists()).containsExactly(Map.entry("manual", 1L));
		assertThat(status.snapshot().lists().last().trigger()).isEqualTo(RelistReason.MANUAL);
		assertThat(status.snapshot().lists().last().items()).isEqualTo(3);
		assertThat(status.snapshot().cache().backlog()).isZero();
		assertThat(this.events).filteredOn(InformerStateChangedEvent.class::isInstance)
			.extracting(Object::toString)
			.containsSubsequence(
					"InformerStateChangedEvent[informer=configmaps, namespace=relist, WATCHING -> RELISTING, "
							+ "cause=relist (manual)]",
					"InformerStateChangedEvent[informer=configmaps, namespace=relist, RELISTING -> WATCHING, "
							+ "cause=relist (manual) completed]");
	}

	@Test
	void aDeleteFoundByARelistIsObservedAtTheListsResourceVersion() throws Exception {
		ConfigMap kept = create("kept", "1");
		ConfigMap vanished = create("vanished", "1");
		String serverVersion = vanished.getMetadata().getResourceVersion();
		String listVersion = serverVersion + "-listed";
		watch(serverVersion, false);
		watch(listVersion, true);
		start();
		this.mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces/relist/configmaps")
			.andReturn(200,
					new ConfigMapListBuilder().withNewMetadata()
						.withResourceVersion(listVersion)
						.endMetadata()
						.withItems(kept)
						.build())
			.once();
		this.events.clear();
		this.informer.relist().get(10, TimeUnit.SECONDS);
		await().until(() -> resourceEvents().size() >= 1);
		ResourceDeletedEvent<?> deleted = only(ResourceDeletedEvent.class);
		assertThat(deleted.isFinalStateUnknown()).isTrue();
		assertThat(deleted.getResourceVersion()).as("the last state known").isEqualTo(serverVersion);
		assertThat(deleted.getObservedResourceVersion()).as("where the list found the name absent")
			.isEqualTo(listVersion);
	}

	@Test
	void aRelistWithoutChangesDeliversNothing() throws Exception {
		ConfigMap same = create("same", "1");
		watch(same.getMetadata().getResourceVersion(), true);
		start();
		this.events.clear();
		this.informer.relist().get(10, TimeUnit.SECONDS);
		assertThat(resourceEvents()).isEmpty();
		assertThat(this.informer.getCache().get("relist", "same")).isPresent();
		assertThat(this.informer.getWatches().get(0).snapshot().lists().relistCount(RelistReason.MANUAL)).isEqualTo(1);
	}

	@Test
	void anInformerThatIsNotRunningCannotRelist() {
		this.informer = this.mock.stopping(TestWatches.configMaps(Clock.systemUTC(), "relist"));
		assertThatIllegalStateException().isThrownBy(this.informer::relist)
			.withMessage("Informer 'configmaps' is not running");
	}

	private void watch(String resourceVersion, boolean always, WatchEvent... events) {
		var session = this.mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces/relist/configmaps?allowWatchBookmarks=true&resourceVersion=" + resourceVersion
					+ "&timeoutSeconds=600&watch=true")
			.andUpgradeToWebSocket()
			.open();
		for (WatchEvent event : events) {
			session = session.waitFor(100).andEmit(event);
		}
		// the mock closes a session once nothing more is expected: expect a message never
		// sent
		var expectation = session.expect("never sent")
			.andEmit(new WatchEvent(TestResources.configMap("relist", "unused", "x"), "BOOKMARK"))
			.once()
			.done();
		if (always) {
			expectation.always();
		}
		else {
			expectation.once();
		}
	}

	private void start() throws Exception {
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener((ApplicationListener<ApplicationEvent>) this.events::add);
		this.informer = this.mock
			.stopping(TestWatches.configMaps(Clock.systemUTC(), publisher, Duration.ZERO, "relist"));
		this.informer.start(this.mock.client(), List.of()).get(10, TimeUnit.SECONDS);
	}

	private ConfigMap create(String name, String value) {
		return this.mock.client().configMaps().resource(TestResources.configMap("relist", name, value)).create();
	}

	private static ConfigMap withVersion(ConfigMap configMap, String resourceVersion) {
		return new ConfigMapBuilder(configMap).editMetadata()
			.withResourceVersion(resourceVersion)
			.endMetadata()
			.build();
	}

	private List<ResourceEvent<?>> resourceEvents() {
		return this.events.stream()
			.filter(ResourceEvent.class::isInstance)
			.<ResourceEvent<?>>map(ResourceEvent.class::cast)
			.toList();
	}

	private <E> E only(Class<E> type) {
		return this.events.stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow();
	}

}
