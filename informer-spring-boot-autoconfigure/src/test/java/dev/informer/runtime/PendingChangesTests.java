package dev.informer.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.Test;

import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The delivery backlog and the state listeners have seen, as the cache reports changes.
 */
class PendingChangesTests {

	private final PendingChanges<ConfigMap> tracker = new PendingChanges<>();

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

	@Test
	void whatListenersHaveSeenIsTheStateAfterTheLastDeliveredChange() {
		// several undelivered changes of one key: once the first is delivered, listeners
		// know its result, not the state before it
		ConfigMap added = configMap("a", "1");
		ConfigMap updated = configMap("a", "2");
		this.store.put("ns/a", added);
		this.store.put("ns/a", updated);
		this.store.remove("ns/a");
		this.store.put("ns/b", configMap("b", "1"));
		this.store.put("ns/b", configMap("b", "2"));
		assertThat(this.tracker.seenByListeners(this.store.snapshot())).isEmpty();
		this.tracker.delivered("ns/a");
		this.tracker.delivered("ns/b");
		assertThat(versions(this.tracker.seenByListeners(this.store.snapshot())))
			.isEqualTo(Map.of("ns/a", "1", "ns/b", "1"));
		this.tracker.delivered("ns/a");
		assertThat(versions(this.tracker.seenByListeners(this.store.snapshot())))
			.isEqualTo(Map.of("ns/a", "2", "ns/b", "1"));
		this.tracker.delivered("ns/a");
		this.tracker.delivered("ns/b");
		assertThat(versions(this.tracker.seenByListeners(this.store.snapshot()))).isEqualTo(Map.of("ns/b", "2"));
		assertThat(this.tracker.backlog()).isZero();
	}

	@Test
	void aChangeIsReportedBeforeTheCacheShowsIt() {
		// a relist reads the cache, then the tracker, while fabric8 stores changes on its
		// own thread: at any instant of a change the two must together say what listeners
		// have seen
		List<Map<String, String>> seenWhileStoring = new ArrayList<>();
		AtomicReference<CachingItemStore<ConfigMap>> storeHolder = new AtomicReference<>();
		PendingChanges<ConfigMap> tracker = new PendingChanges<>() {

			@Override
			void queued(String key, ConfigMap before) {
				seenWhileStoring.add(versions(seenByListeners(storeHolder.get().snapshot())));
				super.queued(key, before);
			}

		};
		CachingItemStore<ConfigMap> store = new CachingItemStore<>(true, List.of(), tracker);
		storeHolder.set(store);
		store.put("ns/a", configMap("a", "1"));
		tracker.delivered("ns/a");
		store.put("ns/b", configMap("b", "1"));
		tracker.delivered("ns/b");
		store.put("ns/a", configMap("a", "2"));
		tracker.delivered("ns/a");
		store.remove("ns/b");
		tracker.delivered("ns/b");
		// each time, exactly the changes delivered before
		assertThat(seenWhileStoring).containsExactly(Map.of(), Map.of("ns/a", "1"), Map.of("ns/a", "1", "ns/b", "1"),
				Map.of("ns/a", "2", "ns/b", "1"));
	}

	private static Map<String, String> versions(Map<String, ConfigMap> objects) {
		Map<String, String> versions = new HashMap<>();
		objects.forEach((key, object) -> versions.put(key, object.getMetadata().getResourceVersion()));
		return versions;
	}

	private static ConfigMap configMap(String name, String resourceVersion) {
		ConfigMap configMap = TestResources.configMap("ns", name, "x");
		configMap.getMetadata().setResourceVersion(resourceVersion);
		return configMap;
	}

}
