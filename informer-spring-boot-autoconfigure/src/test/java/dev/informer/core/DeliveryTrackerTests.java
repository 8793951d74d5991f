package dev.informer.core;

import java.util.List;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.Test;

import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The delivery backlog and the state listeners have seen, as the cache reports changes.
 */
class DeliveryTrackerTests {

	private final DeliveryTracker<ConfigMap> tracker = new DeliveryTracker<>();

	private final CachingItemStore<ConfigMap> store = new CachingItemStore<>(true, List.of(), this.tracker);

	@Test
	void changesThatFabric8NotifiesAreQueuedUntilDelivered() {
		this.store.put("ns/a", configMap("a", "1"));
		this.store.put("ns/b", configMap("b", "1"));
		// same resourceVersion: fabric8 queues no notification
		this.store.put("ns/a", configMap("a", "1"));
		assertThat(this.tracker.backlog()).isEqualTo(2);
		this.store.put("ns/a", configMap("a", "2"));
		this.store.remove("ns/b");
		this.store.remove("ns/missing");
		assertThat(this.tracker.backlog()).isEqualTo(4);
		this.tracker.delivered("ns/a");
		this.tracker.delivered("ns/b");
		this.tracker.delivered("ns/a");
		this.tracker.delivered("ns/b");
		// a delivery nothing was queued for does not go negative
		this.tracker.delivered("ns/other");
		assertThat(this.tracker.backlog()).isZero();
	}

	@Test
	void initialStateIsStoredWithoutNotification() {
		ConfigMap seeded = configMap("a", "1");
		this.store.expectInitialState(List.of(seeded));
		this.store.put("ns/a", seeded);
		assertThat(this.tracker.backlog()).isZero();
		assertThat(this.store.snapshot()).containsOnlyKeys("ns/a");
		// a fresh copy from a list is a change like any other
		this.store.put("ns/a", configMap("a", "2"));
		assertThat(this.tracker.backlog()).isEqualTo(1);
	}

	@Test
	void whatListenersHaveSeenUndoesUndeliveredChanges() {
		ConfigMap seenA = configMap("a", "1");
		ConfigMap seenB = configMap("b", "1");
		this.store.put("ns/a", seenA);
		this.store.put("ns/b", seenB);
		this.store.put("ns/c", configMap("c", "1"));
		this.tracker.delivered("ns/a");
		this.tracker.delivered("ns/b");
		this.tracker.delivered("ns/c");
		// not delivered yet: an update of a, a delete of b, an add of d
		this.store.put("ns/a", configMap("a", "2"));
		this.store.put("ns/a", configMap("a", "3"));
		this.store.remove("ns/b");
		this.store.put("ns/d", configMap("d", "1"));
		assertThat(this.tracker.seenByListeners(this.store.snapshot())).containsOnlyKeys("ns/a", "ns/b", "ns/c")
			.containsEntry("ns/a", seenA)
			.containsEntry("ns/b", seenB);
	}

	private static ConfigMap configMap(String name, String resourceVersion) {
		ConfigMap configMap = TestResources.configMap("ns", name, "x");
		configMap.getMetadata().setResourceVersion(resourceVersion);
		return configMap;
	}

}
