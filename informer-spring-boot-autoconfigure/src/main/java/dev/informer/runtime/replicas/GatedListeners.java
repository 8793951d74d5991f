package dev.informer.runtime.replicas;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.jspecify.annotations.Nullable;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourcesReplayedEvent;
import dev.informer.runtime.listeners.ListenerQueue;
import dev.informer.watch.EventType;

/**
 * The gate stage of one watch: before each listener an event goes to, the
 * {@link DeliveryGate} says whether this replica publishes it now
 * ({@code informer.replicas.mode}), so that no listener is called once the Lease lapsed.
 * What the gate keeps back while this replica owes it is remembered
 * ({@link MissedChanges}) and replayed once the gate publishes again; a relist is seeded
 * with what listeners really saw. The deletes it drops, whoever was to publish them, are
 * kept as {@link Tombstones}: the replay of a replica that takes their objects over
 * delivers them first. The deletes it still delivers of objects it gave up to another
 * replica are {@link FormerOwner}'s.
 * <p>
 * Runs on the watch's {@link ListenerQueue}; lives as long as that queue (one start of
 * the watch).
 *
 * @param <T> the resource type
 * @since 0.1.0
 */
public final class GatedListeners<T extends HasMetadata> {

	private final ListenerQueue queue;

	private final Supplier<DeliveryGate> gate;

	private final HandedOn<T> handedOn;

	private final Listeners<T> listeners;

	private final MissedChanges<T> missed;

	private final Tombstones<T> tombstones;

	private final FormerOwner<T> formerOwner;

	/** Whether a replay of what was missed is queued. */
	private final AtomicBoolean replayQueued = new AtomicBoolean();

	/** What each takeover whose replay is queued and not yet run takes over. */
	private final List<Predicate<? super T>> queuedTakeovers = new CopyOnWriteArrayList<>();

	private volatile boolean closed;

	/** The watch left the namespace selection: only its tombstones are replayed. */
	private volatile boolean left;

	/** Whether the next listener gets an event that every replica publishes. */
	private final BooleanSupplier open = () -> !this.closed;

	/**
	 * Create the gate of one start of a watch.
	 * @param queue the queue the listeners run on
	 * @param gate the gate, asked before each listener
	 * @param handedOn the watch's objects as listeners will have been handed them once
	 * the events queued now are delivered
	 * @param listeners where what passes the gate goes
	 * @param records the bounds of what the gate remembers, and its meters
	 */
	public GatedListeners(ListenerQueue queue, Supplier<DeliveryGate> gate, HandedOn<T> handedOn,
			Listeners<T> listeners, DeliveryRecords records) {
		this.queue = queue;
		this.gate = gate;
		this.handedOn = handedOn;
		this.listeners = listeners;
		this.missed = new MissedChanges<>(records);
		this.tombstones = new Tombstones<>(records);
		this.formerOwner = new FormerOwner<>(queue, handedOn, listeners, this.tombstones, records, () -> !this.closed,
				() -> !this.closed && !this.left);
	}

	/**
	 * Deliver an event to the listeners, on the queue's thread, while this replica
	 * publishes it: the gate is asked before each listener. What the gate keeps from
	 * listeners while this replica owes it is remembered and replayed.
	 * @param type the type of change, as counted
	 * @param event the event
	 */
	public void deliver(EventType type, ResourceEvent<T> event) {
		if (this.closed) {
			return;
		}
		DeliveryGate gate = this.gate.get();
		DeliveryGate.Verdict verdict = gate.verdict(event.getResource());
		if (verdict == DeliveryGate.Verdict.NOT_OURS && this.formerOwner.delivered(gate, event)) {
			return;
		}
		if (verdict != DeliveryGate.Verdict.PUBLISH) {
			kept(verdict, event);
			if (verdict == DeliveryGate.Verdict.NOT_OURS) {
				this.listeners.notOurs(type, event);
			}
			return;
		}
		if (gate == DeliveryGate.ALL) {
			this.listeners.deliver(type, event, this.open);
			return;
		}
		if (isOwed()) {
			// what the gate kept back comes first: the replay queued after this event
			// delivers the state it leads to, and is queued now if it is not yet
			replayIfOwed("lapse");
			kept(DeliveryGate.Verdict.LAPSED, event);
			return;
		}
		if (!(event instanceof ResourceDeletedEvent) && isTakenOverByAQueuedReplay(event.getResource())) {
			// handed on before this replica took the object over, so in that replay's
			// snapshot: the replay delivers the state it leads to, where this update
			// would carry as old a state another replica published
			return;
		}
		this.listeners.deliver(type, event, () -> proceed(gate, event));
	}

	/**
	 * Whether a takeover whose replay is queued and not yet run takes the object over
	 * ({@link #takeOver}): a change of it delivered now was handed on before that replay
	 * took its snapshot.
	 */
	private boolean isTakenOverByAQueuedReplay(T resource) {
		for (Predicate<? super T> gained : this.queuedTakeovers) {
			if (gained.test(resource)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether the gate kept back a change this replica owed that no replay delivered yet:
	 * the replay that will, if queued, comes after every event delivered now (its marker
	 * takes what is owed).
	 */
	private boolean isOwed() {
		return this.missed.isOwed() || this.tombstones.isOwed();
	}

	/**
	 * Remember the cached objects {@code moved} selects as handed over to another
	 * replica, as {@link FormerOwner#handOver} does: this replica delivers their deletes
	 * too. Call before the gate stops publishing them, or as soon as it did.
	 * @param moved the objects another replica publishes from now on
	 */
	public void handOver(Predicate<? super T> moved) {
		this.formerOwner.handOver(moved);
	}

	/**
	 * Another replica publishes what this one published before: deliver the deletes the
	 * gate kept back while this replica owed them, as {@link FormerOwner#deliverOwed}
	 * does.
	 */
	public void deliverOwedDeletes() {
		this.formerOwner.deliverOwed(this.gate);
	}

	/**
	 * Whether the next listener gets the event: not once closed, nor once the gate closed
	 * (the rest of the event is then owed, if the Lease lapsed).
	 */
	private boolean proceed(DeliveryGate gate, ResourceEvent<T> event) {
		if (this.closed) {
			return false;
		}
		DeliveryGate.Verdict verdict = gate.verdict(event.getResource());
		if (verdict != DeliveryGate.Verdict.PUBLISH) {
			kept(verdict, event);
		}
		return verdict == DeliveryGate.Verdict.PUBLISH;
	}

	/**
	 * Remember what the gate kept from listeners: a delete as a tombstone, whoever was to
	 * publish it (unless listeners never saw the object); an add or update only while
	 * this replica owes it.
	 */
	private void kept(DeliveryGate.Verdict verdict, ResourceEvent<T> event) {
		boolean owed = verdict == DeliveryGate.Verdict.LAPSED;
		if (event instanceof ResourceDeletedEvent<T> deleted) {
			if (!owed || !this.missed.neverSeen(Cache.metaNamespaceKeyFunc(deleted.getResource()))) {
				this.tombstones.dropped(deleted.getResource(), deleted.getObservedResourceVersion(), owed,
						deleted.isLeftSelection());
			}
		}
		else if (owed) {
			this.missed.missed(event);
		}
	}

	/**
	 * Publish, in order with the events queued now, a replayed delete for each tombstone
	 * of an object that {@code gained} selects (and of each delete this replica owed),
	 * then each cached object that {@code gained} selects as a replayed add, then a
	 * {@link ResourcesReplayedEvent}. The deletes come first, so that a delete of an old
	 * uid never removes an object created again under its name; a name that has a
	 * replayed delete has its cached object replayed too, even one listeners already got
	 * (this replica published the new uid before it took the old one over). Objects this
	 * replica does not publish by then are left out.
	 * @param gained the objects this replica took over
	 * @param reason why, as the replayed event says
	 */
	public void replay(Predicate<? super T> gained, String reason) {
		replay(gained, reason, false);
	}

	/**
	 * Take over the objects {@code gained} selects from another replica, which published
	 * them until now: replay them as {@link #replay} does, and until that replay runs,
	 * deliver no add or update of them on its own. Such a change was handed on before the
	 * replay took its snapshot, so the replay delivers the state it leads to; delivered
	 * on its own, it would carry as old a state the other replica published, which these
	 * listeners never saw.
	 * @param gained the objects this replica takes over
	 * @param reason why, as the replayed event says
	 */
	public void takeOver(Predicate<? super T> gained, String reason) {
		replay(gained, reason, true);
	}

	private void replay(Predicate<? super T> gained, String reason, boolean takenOver) {
		if (this.closed) {
			return;
		}
		this.replayQueued.set(true);
		if (takenOver) {
			this.queuedTakeovers.add(gained);
		}
		// what listeners will have been handed when the replay's turn comes, taken now:
		// a change handed on later reaches them after the replay, as it happened
		this.handedOn.inOrder((handed) -> this.queue.marker(() -> {
			this.replayQueued.set(false);
			if (takenOver) {
				this.queuedTakeovers.remove(gained);
			}
			Map<String, T> cached = this.left ? Map.of() : handed;
			if (this.closed || cached == null) {
				return;
			}
			// what this replica owed is replayed whole: every object it publishes
			boolean owed = isOwed();
			this.missed.take();
			DeliveryGate gate = this.gate.get();
			Set<String> deletedKeys = new HashSet<>();
			for (Tombstones.Tombstone<T> deleted : this.tombstones
				.take((resource) -> gained.test(resource) && gate.publishes(resource))) {
				ResourceDeletedEvent<T> event = new ResourceDeletedEvent<>(this.listeners.informerName(),
						this.listeners.resourceType(), deleted.resource(), false, deleted.leftSelection(), 0, true,
						deleted.observedResourceVersion());
				if (deleted.owed() && gate.holdsLease()
						&& gate.verdict(deleted.resource()) == DeliveryGate.Verdict.NOT_OURS) {
					// owed through a lapse, its range moved meanwhile: the new
					// owner may never have seen the object; these listeners did
					this.listeners.deliver(EventType.DELETED, event, () -> !this.closed && gate.holdsLease());
				}
				else {
					deliver(EventType.DELETED, event);
				}
				deletedKeys.add(Cache.metaNamespaceKeyFunc(deleted.resource()));
			}
			int count = 0;
			for (Map.Entry<String, T> entry : cached.entrySet()) {
				T resource = entry.getValue();
				// a delete of an old uid is followed by the object now under its name,
				// even one this replica published before: a map by name keeps it
				if (!owed && !gained.test(resource) && !deletedKeys.contains(entry.getKey())) {
					continue;
				}
				ResourceAddedEvent<T> replayed = new ResourceAddedEvent<>(this.listeners.informerName(),
						this.listeners.resourceType(), resource, true);
				DeliveryGate.Verdict verdict = gate.verdict(resource);
				if (verdict == DeliveryGate.Verdict.PUBLISH) {
					deliver(EventType.ADDED, replayed);
					count++;
				}
				else if (verdict == DeliveryGate.Verdict.LAPSED) {
					// the Lease lapsed again before this replay ran: still owed, and
					// replayed once it counts as held again
					kept(verdict, replayed);
				}
			}
			replayed(count, reason);
		}));
	}

	/**
	 * Replay every owned object, as {@link #replay} does, if the gate kept a change from
	 * listeners while this replica owed it and no replay is queued yet. Call once the
	 * gate publishes again.
	 * @param reason why, as the replayed event says
	 */
	public void replayIfOwed(String reason) {
		if (isOwed() && !this.replayQueued.get()) {
			replay((resource) -> true, reason);
		}
	}

	private void replayed(int count, String reason) {
		if (this.closed) {
			return;
		}
		Runnable publish = () -> this.listeners.replayed(count, reason, () -> !this.closed);
		if (this.queue.isDelivering()) {
			publish.run();
		}
		else {
			this.queue.marker(publish);
		}
	}

	/**
	 * Keep deletes that no replica may have delivered, found by a watch that caught up on
	 * objects this replica took over: the next replay delivers them, before its replayed
	 * adds, as it does the deletes the gate dropped.
	 * @param deleted the deleted objects, each in its last state
	 */
	public void keepDeletes(List<T> deleted) {
		for (T resource : deleted) {
			this.tombstones.dropped(resource, resource.getMetadata().getResourceVersion(), false);
		}
	}

	/**
	 * Deliver, as a replay in order with the events queued now, the deletes that a watch
	 * catching up on the objects this replica took over found, each followed by the
	 * object now cached under its name, if any, as {@link #replay} does: the replay of
	 * the takeover itself did not wait for them.
	 * @param deleted the deleted objects, each in its last state
	 * @param reason why, as the replayed event says
	 */
	public void replayDeletes(List<T> deleted, String reason) {
		if (deleted.isEmpty() || this.closed) {
			return;
		}
		keepDeletes(deleted);
		Set<String> keys = new HashSet<>();
		deleted.forEach((resource) -> keys.add(Cache.metaNamespaceKeyFunc(resource)));
		replay((resource) -> keys.contains(Cache.metaNamespaceKeyFunc(resource)), reason);
	}

	/**
	 * Return what a relist is seeded with: the state listeners really saw, the changes
	 * the gate kept from them undone and forgotten (the relist then delivers them as the
	 * differences they are), of the objects {@code delivered} selects. A list for a shard
	 * range ({@code shardList}) does not hold the objects another replica publishes now:
	 * they are left out, so that they leave the cache unseen, never as deletes.
	 * @param seen the state listeners were handed by key
	 * @param delivered the objects this replica published
	 * @param shardList whether the relist lists this replica's shard range only
	 * @return the seed
	 */
	public List<T> relistSeed(Map<String, T> seen, Predicate<? super T> delivered, boolean shardList) {
		DeliveryGate gate = this.gate.get();
		return this.missed.undo(seen)
			.values()
			.stream()
			.filter(delivered)
			.filter((resource) -> !shardList || gate.verdict(resource) != DeliveryGate.Verdict.NOT_OURS)
			.toList();
	}

	/**
	 * Forget what the gate kept back: the watch leaves, or another replica replays it.
	 */
	public void forgetMissed() {
		this.missed.clear();
	}

	/**
	 * The watch left the namespace selection and its objects left this replica's cache:
	 * from now on a replay delivers the tombstones only (the deletes the gate kept back,
	 * those flagged as having left the selection among them), and no object as an add.
	 */
	public void leftSelection() {
		this.left = true;
		this.missed.clear();
	}

	/**
	 * Return whether the gate keeps deletes that a replay is still to deliver.
	 * @return whether a tombstone is kept
	 */
	public boolean keepsDeletes() {
		return !this.tombstones.isEmpty();
	}

	/**
	 * Hand the deletes the gate kept back to the gate of the next watch of the same
	 * objects (a namespace that joined the selection again), whose replay delivers them
	 * before its replayed adds. Call before that watch delivers anything.
	 * @param next the gate of the next watch
	 */
	public void handDeletesTo(GatedListeners<T> next) {
		this.tombstones.moveTo(next.tombstones);
	}

	/**
	 * Deliver nothing more and forget what the gate kept back: the watch stopped.
	 */
	public void close() {
		this.closed = true;
		this.missed.clear();
		this.tombstones.clear();
		this.formerOwner.clear();
	}

	/**
	 * Where the events the gate lets through go: the application's listeners.
	 *
	 * @param <T> the resource type
	 */
	public interface Listeners<T extends HasMetadata> {

		/**
		 * Return the name of the informer, as its events carry it.
		 * @return the name
		 */
		String informerName();

		/**
		 * Return the resource class of the informer, as its events carry it.
		 * @return the class
		 */
		Class<T> resourceType();

		/**
		 * Deliver a resource event to the listeners, asking {@code proceed} before each.
		 * @param type the type of change, as counted
		 * @param event the event
		 * @param proceed whether the next listener gets it
		 */
		void deliver(EventType type, ResourceEvent<T> event, BooleanSupplier proceed);

		/**
		 * Hear of an event no listener of this replica gets, because another replica
		 * publishes it ({@link DeliveryGate.Verdict#NOT_OURS}).
		 * @param type the type of change, as counted
		 * @param event the event
		 */
		default void notOurs(EventType type, ResourceEvent<T> event) {
		}

		/**
		 * Publish the end of a replay.
		 * @param count the objects replayed
		 * @param reason why
		 * @param proceed whether the next listener gets it
		 */
		void replayed(int count, String reason, BooleanSupplier proceed);

	}

	/**
	 * The objects of one watch as its listeners will have been handed them.
	 *
	 * @param <T> the resource type
	 */
	@FunctionalInterface
	public interface HandedOn<T extends HasMetadata> {

		/**
		 * Run an action with the watch's objects by key as listeners will have been
		 * handed them once the events queued now are delivered, atomically with the
		 * hand-off of later changes: what the action queues comes before them.
		 * @param action given the objects, {@code null} before the watch's first fabric8
		 * informer
		 */
		void inOrder(Consumer<@Nullable Map<String, T>> action);

	}

}
