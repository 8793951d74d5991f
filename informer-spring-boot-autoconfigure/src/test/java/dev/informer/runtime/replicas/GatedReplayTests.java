package dev.informer.runtime.replicas;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.listeners.ListenerQueue;
import dev.informer.test.MutableClock;
import dev.informer.watch.EventType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replays of one watch's gate, in order with its events: what a lapse kept back comes
 * before anything that arrives after the Lease counts as held again, and the deletes a
 * watch catching up on a takeover found ({@link GatedListeners#replayDeletes}) each
 * arrive as a replayed delete, followed by the object now under its name, so that a late
 * delete of an old uid never removes an object created again.
 */
class GatedReplayTests {

	private final Map<String, ConfigMap> cached = new LinkedHashMap<>();

	private final List<String> received = new ArrayList<>();

	private final ListenerQueue queue = new ListenerQueue(Runnable::run);

	private volatile DeliveryGate.Verdict verdict = DeliveryGate.Verdict.PUBLISH;

	private final DeliveryGate leader = (resource) -> this.verdict;

	private final GatedListeners<ConfigMap> gate = new GatedListeners<>(this.queue, () -> this.leader,
			(action) -> action.accept(Map.copyOf(this.cached)), new Recording(), DeliveryRecords.defaults());

	@Test
	void eachDeleteFoundIsReplayedThenTheObjectNowUnderItsName() {
		cache(configMap("recreated", "uid-2", "12"));
		cache(configMap("untouched", "uid-3", "9"));
		this.gate.replayDeletes(List.of(configMap("recreated", "uid-1", "10"), configMap("gone", "uid-4", "11")),
				"leader");
		assertThat(this.received).containsExactlyInAnyOrder("deleted ns/recreated uid-1 10 replay",
				"deleted ns/gone uid-4 11 replay", "added ns/recreated uid-2 12 replay", "replayed 1 leader");
		assertThat(this.received.indexOf("added ns/recreated uid-2 12 replay"))
			.as("the object now under the name comes after the delete of the old uid")
			.isGreaterThan(this.received.indexOf("deleted ns/recreated uid-1 10 replay"));
	}

	/**
	 * A leader's Lease lapses while an object is deleted and created again under its
	 * name; once it counts as held again, the next change of the new object arrives
	 * before the replay of what the lapse kept back. It used to be delivered at once,
	 * ahead of that replay: with {@code on-change}, an update from the old uid (the last
	 * state delivered) to the new one, which the contract says is a delete and an add
	 * ({@code FaultScheduleIT} seed -7966229702793444152, leader, on-change). It now
	 * waits for the replay, which delivers the state it leads to.
	 */
	@Test
	void aChangeThatArrivesOnceTheLeaseIsHeldAgainComesAfterWhatTheLapseKeptBack() {
		ConfigMap first = configMap("x", "uid-1", "10");
		event(() -> this.gate.deliver(EventType.ADDED,
				new ResourceAddedEvent<>("configmaps", ConfigMap.class, cache(first), false)));
		this.verdict = DeliveryGate.Verdict.LAPSED;
		this.cached.clear();
		event(() -> this.gate.deliver(EventType.DELETED,
				new ResourceDeletedEvent<>("configmaps", ConfigMap.class, configMap("x", "uid-1", "11"), false)));
		ConfigMap second = cache(configMap("x", "uid-2", "12"));
		event(() -> this.gate.deliver(EventType.ADDED,
				new ResourceAddedEvent<>("configmaps", ConfigMap.class, second, false)));
		this.verdict = DeliveryGate.Verdict.PUBLISH;
		ConfigMap updated = cache(configMap("x", "uid-2", "13"));
		event(() -> this.gate.deliver(EventType.UPDATED,
				new ResourceUpdatedEvent<>("configmaps", ConfigMap.class, second, updated)));
		assertThat(this.received).containsExactly("added ns/x uid-1 10", "deleted ns/x uid-1 11 replay",
				"added ns/x uid-2 13 replay", "replayed 1 lapse");
	}

	/**
	 * A member's range moves away from an object and back while its listener is behind: a
	 * change queued before the member took the object over again is delivered after the
	 * gate says the object is its own, ahead of the takeover's replay. It used to arrive
	 * as an update from a state this listener never saw (another member published it);
	 * found by {@code FaultScheduleIT} seed 5748658773879261155, sharded. The replay,
	 * whose snapshot holds that change, delivers the state instead.
	 */
	@Test
	void aChangeQueuedBeforeATakeoverIsDeliveredByItsReplayNotFromAStateTheListenerNeverSaw() {
		Behind behind = new Behind();
		ConfigMap first = behind.deliver(null, configMap("x", "uid-1", "10"));
		// its range moves to another member, which publishes the next change
		this.verdict = DeliveryGate.Verdict.NOT_OURS;
		ConfigMap second = behind.deliver(first, configMap("x", "uid-1", "11"));
		// the next change waits behind the listener while the range moves back
		behind.queue(second, configMap("x", "uid-1", "12"));
		this.verdict = DeliveryGate.Verdict.PUBLISH;
		behind.gate.takeOver((resource) -> true, "shard-range");
		behind.runAll();
		assertThat(this.received).containsExactly("added ns/x uid-1 10", "added ns/x uid-1 12 replay",
				"replayed 1 shard-range");
	}

	/**
	 * The Lease lapses again while the replay of what a lapse kept back waits behind the
	 * listener: that replay delivers nothing then, and what it was to deliver is still
	 * owed, so the replay once the Lease counts as held again delivers it.
	 */
	@Test
	void aReplayThatRunsWhileTheLeaseHasLapsedAgainLeavesWhatItWasToDeliverOwed() {
		Behind behind = new Behind();
		ConfigMap first = behind.deliver(null, configMap("x", "uid-1", "10"));
		this.verdict = DeliveryGate.Verdict.LAPSED;
		behind.deliver(first, configMap("x", "uid-1", "11"));
		// held again: the replay of the lapse is queued, and the Lease lapses before it
		// runs
		this.verdict = DeliveryGate.Verdict.PUBLISH;
		behind.gate.replayIfOwed("lapse");
		this.verdict = DeliveryGate.Verdict.LAPSED;
		behind.runAll();
		this.verdict = DeliveryGate.Verdict.PUBLISH;
		behind.gate.replayIfOwed("lapse");
		behind.runAll();
		assertThat(this.received).as("what the listener was handed")
			.contains("added ns/x uid-1 10", "added ns/x uid-1 11 replay")
			.doesNotContain("updated ns/x uid-1 11");
	}

	/**
	 * A delete kept through a lapse longer than the tombstones' retention ages out: no
	 * replay will deliver it (the documented limit), so nothing is owed once the Lease
	 * counts as held again. The next change used to start a replay of every cached object
	 * for it, as if it were still owed.
	 */
	@Test
	void aDeleteOwedLongerThanTheRetentionStartsNoReplay() {
		MutableClock clock = MutableClock.startingAt("2026-01-01T00:00:00Z");
		GatedListeners<ConfigMap> gate = new GatedListeners<>(this.queue, () -> this.leader,
				(action) -> action.accept(Map.copyOf(this.cached)), new Recording(),
				new DeliveryRecords(Duration.ofMinutes(10), 100, 100, clock));
		ConfigMap kept = cache(configMap("kept", "uid-1", "10"));
		event(() -> gate.deliver(EventType.ADDED,
				new ResourceAddedEvent<>("configmaps", ConfigMap.class, kept, false)));
		this.verdict = DeliveryGate.Verdict.LAPSED;
		event(() -> gate.deliver(EventType.DELETED,
				new ResourceDeletedEvent<>("configmaps", ConfigMap.class, configMap("gone", "uid-2", "11"), false)));
		clock.advance(Duration.ofMinutes(11));
		this.verdict = DeliveryGate.Verdict.PUBLISH;
		ConfigMap added = cache(configMap("new", "uid-3", "12"));
		event(() -> gate.deliver(EventType.ADDED,
				new ResourceAddedEvent<>("configmaps", ConfigMap.class, added, false)));
		assertThat(this.received).containsExactly("added ns/kept uid-1 10", "added ns/new uid-3 12");
	}

	@Test
	void nothingFoundReplaysNothing() {
		cache(configMap("untouched", "uid-3", "9"));
		this.gate.replayDeletes(List.of(), "leader");
		assertThat(this.received).isEmpty();
	}

	private ConfigMap cache(ConfigMap configMap) {
		this.cached.put(Cache.metaNamespaceKeyFunc(configMap), configMap);
		return configMap;
	}

	/** Deliver on the queue, where the gate runs, after what was handed on before. */
	private void event(Runnable delivery) {
		this.queue.event(delivery);
	}

	private static ConfigMap configMap(String name, String uid, String resourceVersion) {
		return new ConfigMapBuilder().withNewMetadata()
			.withNamespace("ns")
			.withName(name)
			.withUid(uid)
			.withResourceVersion(resourceVersion)
			.endMetadata()
			.build();
	}

	/**
	 * A gate whose listener is behind: what is queued waits until {@link #runAll}.
	 */
	private final class Behind {

		private final List<Runnable> held = new ArrayList<>();

		private final ListenerQueue queue = new ListenerQueue(this.held::add);

		final GatedListeners<ConfigMap> gate = new GatedListeners<>(this.queue, () -> GatedReplayTests.this.leader,
				(action) -> action.accept(Map.copyOf(GatedReplayTests.this.cached)), new Recording(),
				DeliveryRecords.defaults());

		/**
		 * Cache {@code next} and queue its change from {@code previous} (an add if null).
		 */
		ConfigMap queue(@Nullable ConfigMap previous, ConfigMap next) {
			cache(next);
			this.queue.event(() -> this.gate.deliver((previous != null) ? EventType.UPDATED : EventType.ADDED,
					(previous != null) ? new ResourceUpdatedEvent<>("configmaps", ConfigMap.class, previous, next)
							: new ResourceAddedEvent<>("configmaps", ConfigMap.class, next, false)));
			return next;
		}

		/** Queue a change as {@link #queue} does, and let the listener catch up. */
		ConfigMap deliver(@Nullable ConfigMap previous, ConfigMap next) {
			queue(previous, next);
			runAll();
			return next;
		}

		void runAll() {
			while (!this.held.isEmpty()) {
				this.held.remove(0).run();
			}
		}

	}

	private final class Recording implements GatedListeners.Listeners<ConfigMap> {

		@Override
		public String informerName() {
			return "configmaps";
		}

		@Override
		public Class<ConfigMap> resourceType() {
			return ConfigMap.class;
		}

		@Override
		public void deliver(EventType type, ResourceEvent<ConfigMap> event, BooleanSupplier proceed) {
			ConfigMap resource = event.getResource();
			boolean replay = (event instanceof ResourceDeletedEvent<ConfigMap> deleted && deleted.isReplay())
					|| (event instanceof ResourceAddedEvent<ConfigMap> added && added.isReplay());
			GatedReplayTests.this.received
				.add(type + " " + Cache.metaNamespaceKeyFunc(resource) + " " + resource.getMetadata().getUid() + " "
						+ resource.getMetadata().getResourceVersion() + (replay ? " replay" : ""));
		}

		@Override
		public void replayed(int count, String reason, BooleanSupplier proceed) {
			GatedReplayTests.this.received.add("replayed " + count + " " + reason);
		}

	}

}
