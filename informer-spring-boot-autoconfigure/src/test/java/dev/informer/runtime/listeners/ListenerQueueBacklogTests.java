package dev.informer.runtime.listeners;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.GatedListener;
import dev.informer.watch.EventType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@link ListenerQueue} with a bound ({@code informer.listeners.max-backlog}): beyond
 * it a change of an object with a change waiting is folded into that one, so listeners
 * get every object's final state, in order per object, from a backlog that stays bounded;
 * markers are never folded away nor overtaken; with {@code overflow=fail} the watch is
 * told once.
 */
class ListenerQueueBacklogTests {

	private static final String INFORMER = "configmaps";

	private final ExecutorService threads = ListenerThreads.create("backlog-test", 1);

	private final GatedListener listener = new GatedListener(true);

	private final List<ResourceEvent<?>> delivered = new CopyOnWriteArrayList<>();

	private final AtomicLong folded = new AtomicLong();

	@AfterEach
	void stop() {
		this.listener.open();
		this.threads.shutdownNow();
	}

	@Test
	void beyondTheBoundUpdatesOfAnObjectFoldIntoOneWhoseOldStateIsTheLastDelivered() {
		ListenerQueue queue = queue(new BacklogOptions(3, BacklogOptions.Overflow.COALESCE));
		add(queue, "a", 1);
		await().until(this.listener::isWaiting);
		// a@1 is in the listener's hands: below the bound, changes queue as they come
		update(queue, "a", 1, 2);
		update(queue, "a", 2, 3);
		// at the bound: folded into the waiting a@3
		update(queue, "a", 3, 4);
		update(queue, "a", 4, 5);
		assertThat(queue.backlog()).isEqualTo(3);
		this.listener.open();
		await().until(() -> queue.backlog() == 0);
		assertThat(this.listener.violations()).isEmpty();
		assertThat(this.listener.view()).containsExactly(Map.entry("a", "5"));
		assertThat(this.listener.received()).containsExactly("Added a@1", "Updated a@2", "Updated a@5");
		ResourceUpdatedEvent<?> coalesced = (ResourceUpdatedEvent<?>) this.delivered.get(2);
		assertThat(coalesced.getOldResource().getMetadata().getResourceVersion()).isEqualTo("2");
		assertThat(coalesced.getCoalesced()).isEqualTo(2);
		assertThat(coalesced.isCoalesced()).isTrue();
		assertThat(coalesced).hasToString(
				"ResourceUpdatedEvent[informer=configmaps, kind=ConfigMap, object=backlog/a, resourceVersion=5, "
						+ "oldResourceVersion=2, resync=false, coalesced=2]");
		assertThat(this.delivered.get(1).isCoalesced()).isFalse();
		assertThat(this.folded).hasValue(2);
	}

	@Test
	void noChangeIsFoldedPastAMarker() {
		ListenerQueue queue = queue(new BacklogOptions(1, BacklogOptions.Overflow.COALESCE));
		List<String> order = new CopyOnWriteArrayList<>();
		add(queue, "a", 1);
		await().until(this.listener::isWaiting);
		update(queue, "a", 1, 2);
		// folds into a@2 before the marker is queued
		update(queue, "a", 2, 3);
		queue.marker(() -> order.add("marker after a@" + this.listener.view().get("a")));
		update(queue, "a", 3, 4);
		update(queue, "a", 4, 5);
		this.listener.open();
		await().until(() -> queue.backlog() == 0);
		assertThat(order).containsExactly("marker after a@3");
		assertThat(this.listener.received()).containsExactly("Added a@1", "Updated a@3", "Updated a@5");
		assertThat(this.listener.violations()).isEmpty();
	}

	@Test
	void anObjectAddedAndDeletedBeforeListenersSawItIsNotDelivered() {
		ListenerQueue queue = queue(new BacklogOptions(1, BacklogOptions.Overflow.COALESCE));
		add(queue, "a", 1);
		await().until(this.listener::isWaiting);
		add(queue, "b", 1);
		update(queue, "b", 1, 2);
		delete(queue, "b", 2);
		assertThat(queue.backlog()).isEqualTo(1);
		this.listener.open();
		await().until(() -> queue.backlog() == 0);
		assertThat(this.listener.received()).containsExactly("Added a@1");
		assertThat(this.folded).hasValue(2);
	}

	@Test
	void aReplayedObjectDeletedBeforeListenersSawTheReplayIsDeliveredAsADelete() {
		ListenerQueue queue = queue(new BacklogOptions(1, BacklogOptions.Overflow.COALESCE));
		add(queue, "a", 1);
		await().until(this.listener::isWaiting);
		queue.event("b", EventType.ADDED, new ResourceAddedEvent<>(INFORMER, ConfigMap.class, configMap("b", 1), true),
				sink(), () -> {
				});
		delete(queue, "b", 1);
		this.listener.open();
		await().until(() -> queue.backlog() == 0);
		ResourceEvent<?> last = this.delivered.get(this.delivered.size() - 1);
		assertThat(last).isInstanceOf(ResourceDeletedEvent.class);
		assertThat(last.getCoalesced()).isEqualTo(1);
	}

	@Test
	void aResyncOfAnObjectWithAChangeWaitingIsDroppedAndItsHookStillRuns() {
		ListenerQueue queue = queue(new BacklogOptions(1, BacklogOptions.Overflow.COALESCE));
		AtomicInteger hooks = new AtomicInteger();
		add(queue, "a", 1);
		await().until(this.listener::isWaiting);
		add(queue, "b", 1);
		ConfigMap b = configMap("b", 1);
		queue.event("b", EventType.RESYNC, new ResourceUpdatedEvent<>(INFORMER, ConfigMap.class, b, b), sink(),
				hooks::incrementAndGet);
		this.listener.open();
		await().until(() -> queue.backlog() == 0);
		assertThat(this.listener.received()).containsExactly("Added a@1", "Added b@1");
		assertThat(hooks).hasValue(1);
		assertThat(this.folded).hasValue(0);
	}

	@Test
	void aBoundThatFailsIsReportedOnceAndFoldsNothing() {
		List<Long> overflows = new CopyOnWriteArrayList<>();
		ListenerQueue queue = new ListenerQueue(this.threads, new BacklogOptions(2, BacklogOptions.Overflow.FAIL),
				new ListenerQueue.Backlog() {

					@Override
					public void overflowed(long backlog) {
						overflows.add(backlog);
					}

				});
		add(queue, "a", 1);
		await().until(this.listener::isWaiting);
		update(queue, "a", 1, 2);
		update(queue, "a", 2, 3);
		update(queue, "a", 3, 4);
		assertThat(overflows).containsExactly(2L);
		assertThat(queue.backlog()).isEqualTo(4);
	}

	/**
	 * 50,000 objects, each added, updated four times, every tenth deleted; the listener
	 * is 100 times slower than the changes: it takes one event for every 100 changes
	 * queued, until the last change is queued. With a bound of 1,000 the backlog never
	 * holds more than the bound plus one change per object, the heap after GC at the end
	 * of queueing is below what the unbounded queue holds for the same changes, and the
	 * listener ends with every object's final state, each update's old state being the
	 * one it last saw.
	 */
	@Test
	void aListenerFarSlowerThanTheChangesGetsEveryFinalStateFromABoundedBacklog() {
		int objects = 50_000;
		long bound = 1_000;
		FinalStates slow = new FinalStates();
		ListenerQueue queue = queue(new BacklogOptions(bound, BacklogOptions.Overflow.COALESCE));
		long baseline = heapAfterGc();
		long[] peak = new long[1];
		long[] queued = new long[1];
		long started = System.nanoTime();
		long changes = produce(queue, objects, slow, () -> {
			peak[0] = Math.max(peak[0], queue.backlog());
			if (++queued[0] % 100 == 0) {
				slow.allow(1);
			}
		});
		long producing = System.nanoTime() - started;
		long deliveredWhileQueueing = slow.deliveries;
		long boundedHeap = heapAfterGc();
		slow.allow(Integer.MAX_VALUE / 2);
		await().atMost(Duration.ofSeconds(30)).until(() -> queue.backlog() == 0);
		assertThat(slow.violations).isEmpty();
		assertThat(slow.view).isEqualTo(finalStates(objects));
		assertThat(peak[0]).isLessThanOrEqualTo(bound + objects);
		assertThat(deliveredWhileQueueing).isLessThanOrEqualTo(changes / 100);

		// the same changes, unbounded, with a listener that takes none of them
		ListenerQueue unbounded = new ListenerQueue(this.threads, BacklogOptions.UNBOUNDED, ListenerQueue.Backlog.NONE);
		FinalStates held = new FinalStates();
		produce(unbounded, objects, held, () -> {
		});
		long unboundedHeap = heapAfterGc();
		assertThat(unbounded.backlog()).isEqualTo(changes);
		assertThat(boundedHeap).isLessThan(unboundedHeap);
		System.out.printf("ListenerQueueBacklogTests: %d objects, %d changes queued in %d ms, %d delivered meanwhile; "
				+ "bound %d: peak backlog %d, %d deliveries in all, %d changes folded; heap used after GC: %d MB "
				+ "before, %d MB at the end of queueing with the bound, %d MB with the %d changes held unbounded%n",
				objects, changes, producing / 1_000_000, deliveredWhileQueueing, bound, peak[0], slow.deliveries,
				this.folded.get(), baseline >> 20, boundedHeap >> 20, unboundedHeap >> 20, changes);
		held.allow(Integer.MAX_VALUE / 2);
		unbounded.close();
	}

	private static Map<String, String> finalStates(int objects) {
		Map<String, String> expected = new HashMap<>();
		for (int i = 0; i < objects; i++) {
			if (i % 10 != 0) {
				expected.put("cm-" + i, "5");
			}
		}
		return expected;
	}

	private long produce(ListenerQueue queue, int objects, BiConsumer<EventType, ResourceEvent<ConfigMap>> sink,
			Runnable sample) {
		// built without builders: queueing, not building, is what is timed
		long changes = 0;
		List<ConfigMap> states = new ArrayList<>(objects);
		for (int i = 0; i < objects; i++) {
			ConfigMap added = plainConfigMap("cm-" + i, 1);
			states.add(added);
			queue.event(added.getMetadata().getName(), EventType.ADDED,
					new ResourceAddedEvent<>(INFORMER, ConfigMap.class, added), sink, () -> {
					});
			changes++;
			sample.run();
		}
		for (int version = 2; version <= 5; version++) {
			for (int i = 0; i < objects; i++) {
				ConfigMap old = states.get(i);
				ConfigMap updated = plainConfigMap("cm-" + i, version);
				states.set(i, updated);
				queue.event(updated.getMetadata().getName(), EventType.UPDATED,
						new ResourceUpdatedEvent<>(INFORMER, ConfigMap.class, old, updated), sink, () -> {
						});
				changes++;
				sample.run();
			}
		}
		for (int i = 0; i < objects; i += 10) {
			ConfigMap last = states.get(i);
			queue.event(last.getMetadata().getName(), EventType.DELETED,
					new ResourceDeletedEvent<>(INFORMER, ConfigMap.class, last, false), sink, () -> {
					});
			changes++;
			sample.run();
		}
		return changes;
	}

	private ListenerQueue queue(BacklogOptions bound) {
		return new ListenerQueue(this.threads, bound, new ListenerQueue.Backlog() {

			@Override
			public void coalesced(int changes) {
				ListenerQueueBacklogTests.this.folded.addAndGet(changes);
			}

		});
	}

	private <T extends io.fabric8.kubernetes.api.model.HasMetadata> BiConsumer<EventType, ResourceEvent<T>> sink() {
		return (type, event) -> {
			this.delivered.add(event);
			this.listener.onApplicationEvent(event);
		};
	}

	private void add(ListenerQueue queue, String name, int version) {
		queue.event(name, EventType.ADDED,
				new ResourceAddedEvent<>(INFORMER, ConfigMap.class, configMap(name, version)), sink(), () -> {
				});
	}

	private void update(ListenerQueue queue, String name, int from, int to) {
		queue.event(name, EventType.UPDATED,
				new ResourceUpdatedEvent<>(INFORMER, ConfigMap.class, configMap(name, from), configMap(name, to)),
				sink(), () -> {
				});
	}

	private void delete(ListenerQueue queue, String name, int version) {
		queue.event(name, EventType.DELETED,
				new ResourceDeletedEvent<>(INFORMER, ConfigMap.class, configMap(name, version), false), sink(), () -> {
				});
	}

	private static ConfigMap configMap(String name, int version) {
		return new ConfigMapBuilder().withNewMetadata()
			.withNamespace("backlog")
			.withName(name)
			.withResourceVersion(Integer.toString(version))
			.endMetadata()
			.withData(Map.of("value", "v".repeat(200) + version))
			.build();
	}

	private static ConfigMap plainConfigMap(String name, int version) {
		ObjectMeta metadata = new ObjectMeta();
		metadata.setNamespace("backlog");
		metadata.setName(name);
		metadata.setResourceVersion(Integer.toString(version));
		ConfigMap configMap = new ConfigMap();
		configMap.setMetadata(metadata);
		configMap.setData(Map.of("value", PAYLOAD + name + version));
		return configMap;
	}

	private static final String PAYLOAD = "v".repeat(200);

	private static long heapAfterGc() {
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

	/**
	 * A listener that takes one event per permit and checks what it gets against what it
	 * saw: an add of an object it does not have, an update whose old state is the one it
	 * last saw, a delete of one it has. Runs on the queue's one thread.
	 */
	private static final class FinalStates implements BiConsumer<EventType, ResourceEvent<ConfigMap>> {

		private final Semaphore permits = new Semaphore(0);

		private final Map<String, String> view = new HashMap<>();

		private final List<String> violations = new CopyOnWriteArrayList<>();

		private volatile long deliveries;

		void allow(int events) {
			this.permits.release(events);
		}

		@Override
		public void accept(EventType type, ResourceEvent<ConfigMap> event) {
			this.permits.acquireUninterruptibly();
			String key = event.getName();
			String seen = this.view.get(key);
			if (event instanceof ResourceAddedEvent<?> && seen != null) {
				this.violations.add("added while present: " + event);
			}
			if (event instanceof ResourceUpdatedEvent<ConfigMap> update
					&& !update.getOldResource().getMetadata().getResourceVersion().equals(seen)) {
				this.violations.add("old state is not the last seen " + seen + ": " + event);
			}
			if (event instanceof ResourceDeletedEvent<?>) {
				if (seen == null) {
					this.violations.add("deleted while absent: " + event);
				}
				this.view.remove(key);
			}
			else {
				this.view.put(key, event.getResourceVersion());
			}
			this.deliveries++;
		}

	}

}
