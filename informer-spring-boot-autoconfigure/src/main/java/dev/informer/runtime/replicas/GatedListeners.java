package dev.informer.runtime.replicas;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
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
 * ({@code informer.delivery.mode}), so that no listener is called once the Lease lapsed.
 * What the gate keeps back while this replica owes it is remembered
 * ({@link MissedChanges}) and replayed once the gate publishes again; a relist is seeded
 * with what listeners really saw.
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

	private final Supplier<@Nullable Map<String, T>> cache;

	private final Listeners<T> listeners;

	private final MissedChanges<T> missed = new MissedChanges<>();

	/** Whether a replay of what was missed is queued. */
	private final AtomicBoolean replayQueued = new AtomicBoolean();

	private volatile boolean closed;

	/** Whether the next listener gets an event that every replica publishes. */
	private final BooleanSupplier open = () -> !this.closed;

	/**
	 * Create the gate of one start of a watch.
	 * @param queue the queue the listeners run on
	 * @param gate the gate, asked before each listener
	 * @param cache the watch's cached objects by key, as they are now, {@code null}
	 * before its first fabric8 informer
	 * @param listeners where what passes the gate goes
	 */
	public GatedListeners(ListenerQueue queue, Supplier<DeliveryGate> gate, Supplier<@Nullable Map<String, T>> cache,
			Listeners<T> listeners) {
		this.queue = queue;
		this.gate = gate;
		this.cache = cache;
		this.listeners = listeners;
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
		if (verdict != DeliveryGate.Verdict.PUBLISH) {
			if (verdict == DeliveryGate.Verdict.LAPSED) {
				this.missed.missed(event);
			}
			return;
		}
		if (gate == DeliveryGate.ALL) {
			this.listeners.deliver(type, event, this.open);
			return;
		}
		replayIfOwed("lapse");
		this.listeners.deliver(type, event, () -> proceed(gate, event));
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
		if (verdict == DeliveryGate.Verdict.LAPSED) {
			this.missed.missed(event);
		}
		return verdict == DeliveryGate.Verdict.PUBLISH;
	}

	/**
	 * Publish, in order with the events queued now, each cached object that
	 * {@code gained} selects as a replayed add, a delete with final state unknown for
	 * each object deleted while this replica owed its changes, then a
	 * {@link ResourcesReplayedEvent}. Objects this replica does not publish by then are
	 * left out.
	 * @param gained the objects this replica took over
	 * @param reason why, as the replayed event says
	 */
	public void replay(Predicate<? super T> gained, String reason) {
		if (this.closed) {
			return;
		}
		this.replayQueued.set(true);
		this.queue.marker(() -> {
			this.replayQueued.set(false);
			Map<String, T> cached = this.cache.get();
			if (this.closed || cached == null) {
				return;
			}
			// what this replica owed is replayed whole: every object it publishes
			boolean owed = this.missed.isOwed();
			Map<String, Optional<T>> missed = this.missed.take();
			DeliveryGate gate = this.gate.get();
			int count = 0;
			for (T resource : cached.values()) {
				if ((owed || gained.test(resource)) && gate.publishes(resource)) {
					deliver(EventType.ADDED, new ResourceAddedEvent<>(this.listeners.informerName(),
							this.listeners.resourceType(), resource, true));
					count++;
				}
			}
			missed.forEach((key, lastSeen) -> {
				if (lastSeen.isPresent() && !cached.containsKey(key)) {
					deliver(EventType.DELETED, new ResourceDeletedEvent<>(this.listeners.informerName(),
							this.listeners.resourceType(), lastSeen.get(), true));
				}
			});
			replayed(count, reason);
		});
	}

	/**
	 * Replay every owned object, as {@link #replay} does, if the gate kept a change from
	 * listeners while this replica owed it and no replay is queued yet. Call once the
	 * gate publishes again.
	 * @param reason why, as the replayed event says
	 */
	public void replayIfOwed(String reason) {
		if (this.missed.isOwed() && !this.replayQueued.get()) {
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
	 * Undo the changes the gate kept from listeners in what a relist is seeded with, and
	 * forget them: the relist then delivers them as the differences they are.
	 * @param seen the state listeners were handed by key
	 * @return the state listeners really saw by key
	 */
	public Map<String, T> undoMissed(Map<String, T> seen) {
		return this.missed.undo(seen);
	}

	/**
	 * Forget what the gate kept back: the watch leaves, or another replica replays it.
	 */
	public void forgetMissed() {
		this.missed.clear();
	}

	/**
	 * Deliver nothing more and forget what the gate kept back: the watch stopped.
	 */
	public void close() {
		this.closed = true;
		this.missed.clear();
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
		 * Publish the end of a replay.
		 * @param count the objects replayed
		 * @param reason why
		 * @param proceed whether the next listener gets it
		 */
		void replayed(int count, String reason, BooleanSupplier proceed);

	}

}
