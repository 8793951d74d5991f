package dev.informer.runtime.replicas;

import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;

import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.runtime.listeners.ListenerQueue;
import dev.informer.watch.EventType;

/**
 * What one watch's gate still delivers of the objects its replica gave up to another (a
 * sharded member's range moved away, a leader was replaced): their deletes, as replays.
 * The replica that took them over may never see those objects: its watch may have listed
 * again across their whole life ({@code 410 Gone}, a replacement), and its catch-up on
 * deletes cannot reach back past a kube-apiserver restart; then nobody else delivers the
 * delete of an object this replica's listeners hold. A delete may so arrive twice, once
 * from each replica: at least once, as in every handover.
 * <p>
 * Part of {@link GatedListeners}; runs on the watch's {@link ListenerQueue}.
 *
 * @param <T> the resource type
 */
final class FormerOwner<T extends HasMetadata> {

	private final ListenerQueue queue;

	private final GatedListeners.HandedOn<T> handedOn;

	private final GatedListeners.Listeners<T> listeners;

	private final Tombstones<T> tombstones;

	private final HandedOver<T> handedOver;

	/** Whether the gate still delivers: not once closed. */
	private final BooleanSupplier open;

	/** Whether the watch still holds objects: not once closed or out of the selection. */
	private final BooleanSupplier holds;

	FormerOwner(ListenerQueue queue, GatedListeners.HandedOn<T> handedOn, GatedListeners.Listeners<T> listeners,
			Tombstones<T> tombstones, DeliveryRecords records, BooleanSupplier open, BooleanSupplier holds) {
		this.queue = queue;
		this.handedOn = handedOn;
		this.listeners = listeners;
		this.tombstones = tombstones;
		this.handedOver = new HandedOver<>(records);
		this.open = open;
		this.holds = holds;
	}

	/**
	 * Remember the objects {@code moved} selects, as listeners will have been handed them
	 * once the events queued now are delivered, as handed over to another replica. Call
	 * before the gate stops publishing them, or as soon as it did.
	 * @param moved the objects another replica publishes from now on
	 */
	void handOver(Predicate<? super T> moved) {
		this.handedOn.inOrder((cached) -> {
			if (this.holds.getAsBoolean() && cached != null) {
				this.handedOver.handedOver(cached.values().stream().filter(moved).toList());
			}
		});
	}

	/**
	 * Deliver, as a replay, the delete of an object this replica handed over, while the
	 * gate lets it ({@link DeliveryGate#deliversHandedOver()}). A delete whose final
	 * state is unknown carries the state the object had when it was handed over, the last
	 * one this replica published.
	 * @param gate the gate
	 * @param event an event the gate says is another replica's
	 * @return whether it was delivered
	 */
	boolean delivered(DeliveryGate gate, ResourceEvent<T> event) {
		if (!(event instanceof ResourceDeletedEvent<T> deleted) || deleted.isLeftSelection()
				|| !gate.deliversHandedOver()) {
			return false;
		}
		T handed = this.handedOver.take(deleted.getResource());
		if (handed == null) {
			return false;
		}
		T state = deleted.isFinalStateUnknown() ? handed : deleted.getResource();
		this.listeners.deliver(EventType.DELETED,
				new ResourceDeletedEvent<>(this.listeners.informerName(), this.listeners.resourceType(), state,
						deleted.isFinalStateUnknown(), false, 0, true, deleted.getObservedResourceVersion()),
				() -> this.open.getAsBoolean() && gate.deliversHandedOver());
		return true;
	}

	/**
	 * Another replica publishes what this one published before (a new leader): deliver
	 * now, as replays in order with the events queued now, the deletes the gate kept back
	 * while this replica owed them (its Lease had lapsed); the deletes it sees from now
	 * on of what it handed over go as {@link #delivered}. Those of objects the gate says
	 * this replica publishes or owes again are left to its own replay.
	 * @param gate the gate, asked when the queue gets to it
	 */
	void deliverOwed(Supplier<DeliveryGate> gate) {
		if (!this.open.getAsBoolean() || !this.tombstones.isOwed()) {
			return;
		}
		this.queue.marker(() -> {
			DeliveryGate now = gate.get();
			if (!this.open.getAsBoolean() || !now.deliversHandedOver()) {
				return;
			}
			for (Tombstones.Tombstone<T> deleted : this.tombstones.take((resource) -> false)) {
				if (now.verdict(deleted.resource()) != DeliveryGate.Verdict.NOT_OURS) {
					this.tombstones.dropped(deleted.resource(), deleted.observedResourceVersion(), deleted.owed(),
							deleted.leftSelection());
					continue;
				}
				this.listeners.deliver(EventType.DELETED,
						new ResourceDeletedEvent<>(this.listeners.informerName(), this.listeners.resourceType(),
								deleted.resource(), false, deleted.leftSelection(), 0, true,
								deleted.observedResourceVersion()),
						() -> this.open.getAsBoolean() && now.deliversHandedOver());
			}
		});
	}

	/**
	 * Forget what was handed over: the watch stopped.
	 */
	void clear() {
		this.handedOver.clear();
	}

}
