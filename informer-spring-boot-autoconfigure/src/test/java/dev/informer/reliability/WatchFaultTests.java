package dev.informer.reliability;

import java.time.Duration;
import java.util.List;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapListBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Faults on the watch, injected deterministically through mock server expectations (fault
 * matrix row 4; more rows in the other classes of this package).
 */
class WatchFaultTests {

	private static final String LIST = "/api/v1/namespaces/faults/configmaps?resourceVersion=0";

	/**
	 * After 410 fabric8 lists without resourceVersion=0: a consistent read from etcd, not
	 * the watch cache that just expired.
	 */
	private static final String RELIST = "/api/v1/namespaces/faults/configmaps";

	private MockApiServer mock;

	@BeforeEach
	void startServer() {
		this.mock = MockApiServer.expectations().withCoreDiscovery();
	}

	@AfterEach
	void stopServer() {
		this.mock.close();
	}

	private ApplicationContextRunner runner() {
		return InformerContexts.configMaps(this.mock::client, "faults");
	}

	@Test
	void watchError410RelistsAndDeliversOnlyRealDifferences() {
		this.mock.server()
			.expect()
			.get()
			.withPath(LIST)
			.andReturn(200, list("10", cm("a", "1"), cm("b", "2"), cm("c", "3")))
			.once();
		this.mock.server()
			.expect()
			.get()
			.withPath(RELIST)
			.andReturn(200, list("20", cm("a", "1"), cm("b", "5"), cm("d", "11")))
			.always();
		this.mock.server()
			.expect()
			.get()
			.withPath(watch("10"))
			.andUpgradeToWebSocket()
			.open()
			.waitFor(200)
			.andEmit(new WatchEvent(
					new StatusBuilder().withCode(410).withReason("Expired").withMessage("too old").build(), "ERROR"))
			.done()
			.once();
		this.mock.server().expect().get().withPath(watch("20")).andUpgradeToWebSocket().open().done().always();
		this.runner().run((context) -> {
			RecordingListener listener = InformerContexts.listener(context);
			Watch status = InformerContexts.watch(context);
			await().atMost(Duration.ofSeconds(20))
				.until(() -> status.snapshot().lists().relists().getOrDefault("410", 0L) == 1
						&& listener.resourceEvents().size() == 6);
			List<ResourceEvent<?>> afterSync = listener.resourceEvents().subList(3, 6);
			assertThat(afterSync).extracting((event) -> event.getClass().getSimpleName() + " " + event.getName())
				.containsExactlyInAnyOrder("ResourceUpdatedEvent b", "ResourceAddedEvent d", "ResourceDeletedEvent c");
			assertThat(listener.events(ResourceDeletedEvent.class)).singleElement()
				.satisfies((deleted) -> assertThat(deleted.isFinalStateUnknown()).isTrue());
			assertThat(listener.events(ResourceUpdatedEvent.class)).singleElement()
				.satisfies((updated) -> assertThat(updated.getOldResource().getMetadata().getResourceVersion())
					.isEqualTo("2"));
			assertThat(listener.events(InformerSyncedEvent.class)).hasSize(1);
			assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
				.containsExactly("a", "b", "c", "d");
		});
	}

	static String watch(String resourceVersion) {
		return "/api/v1/namespaces/faults/configmaps?allowWatchBookmarks=true&resourceVersion=" + resourceVersion
				+ "&timeoutSeconds=600&watch=true";
	}

	static ConfigMap cm(String name, String resourceVersion) {
		return new ConfigMapBuilder(TestResources.configMap("faults", name, resourceVersion)).editMetadata()
			.withResourceVersion(resourceVersion)
			.endMetadata()
			.build();
	}

	static io.fabric8.kubernetes.api.model.ConfigMapList list(String resourceVersion, ConfigMap... items) {
		return new ConfigMapListBuilder().withNewMetadata()
			.withResourceVersion(resourceVersion)
			.endMetadata()
			.withItems(items)
			.build();
	}

}
