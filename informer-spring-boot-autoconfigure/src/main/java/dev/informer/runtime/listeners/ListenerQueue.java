package dev.informer.runtime.listeners;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.event.ResourceEvent;
import dev.informer.watch.EventType;

/**
 * The events of one watch, waiting for listeners: run one at a time, in the order they
 * were queued, on a thread of a shared executor that is held only while there is work.
 * <p>
 * The queue outlives the fabric8 informers that feed it: a relist replaces the informer,
 * and what the old one had queued is still delivered, before anything the new one queues.
 * So a listener is never called by two informers at once, never interrupted by a
 * replacement (it does not run on fabric8's threads, which fabric8 interrupts when it
 * stops an informer), and a relist never waits for a listener.
 * <p>
 * Bounded by {@link BacklogOptions}: once the backlog (this queue's events and those
 * fabric8 still holds, {@code upstream}) reaches the bound, a change of an object whose
 * earlier change still waits is {@link Coalescing folded} into it, or the queue reports
 * the overflow. Only changes queued since the last marker are folded, so no change moves
 * past a marker.
 * <p>
 * An executor that rejects the queue's turn (a bounded pool, busy) does not lose it: the
 * queue keeps its turn and asks again after a capped exponential backoff with jitter
 * ({@link #FIRST_RETRY} doubling to {@link #MAX_RETRY}), without waiting for another
 * event, until the executor accepts or the queue closes. Meanwhile new events only queue.
 *
 * @since 0.1.0
 */
public final class ListenerQueue {

	private static final Log logger = LogFactory.getLog(ListenerQueue.class);

	private final Queue<Delivery> deliveries = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean draining = new AtomicBoolean();

	private final AtomicLong resourceEvents = new AtomicLong();

	/**
	 * Deliveries in a row before the queue hands its thread on: with more busy queues
	 * than threads, each gets its turn.
	 */
	static final int BATCH = 256;

	/**
	 * The wait before asking a rejecting executor again, the first time.
	 */
	static final Duration FIRST_RETRY = Duration.ofMillis(10);

	/**
	 * The longest wait before asking a rejecting executor again.
	 */
	static final Duration MAX_RETRY = Duration.ofSeconds(1);

	/** Rejections of this queue's turn since the executor last accepted it. */
	private final AtomicInteger rejectedInARow = new AtomicInteger();

	private final Executor executor;

	private final BacklogOptions bound;

	private final Backlog observer;

	/** The latest waiting change of each object since the last marker; under adding. */
	private final Map<String, KeyedEvent<?>> latest = new ConcurrentHashMap<>();

	private final Object adding = new Object();

	private final AtomicBoolean overflowed = new AtomicBoolean();

	private volatile boolean closed;

	private volatile @Nullable Thread worker;

	public ListenerQueue(Executor executor) {
		this(executor, BacklogOptions.UNBOUNDED, Backlog.NONE);
	}

	/**
	 * Create a bounded queue.
	 * @param executor where deliveries run
	 * @param bound the bound and what happens beyond it
	 * @param observer what waits before this queue, and who hears of folds and overflow
	 */
	public ListenerQueue(Executor executor, BacklogOptions bound, Backlog observer) {
		this.executor = executor;
		this.bound = bound;
		this.observer = observer;
	}

	/**
	 * Queue the delivery of a resource event.
	 * @param delivery what to run
	 */
	public void event(Runnable delivery) {
		add(new Delivery(delivery, true));
	}

	/**
	 * Queue the change of one object, folded into its waiting change when the backlog is
	 * at the bound and overflow coalesces.
	 * @param <T> the resource type
	 * @param key the object's cache key
	 * @param type the type of change
	 * @param event the event
	 * @param sink delivers the event (or what it was folded into)
	 * @param taken run when the change leaves the queue, folded or not
	 */
	public <T extends HasMetadata> void event(String key, EventType type, ResourceEvent<T> event,
			BiConsumer<EventType, ResourceEvent<T>> sink, Runnable taken) {
		if (this.bound == BacklogOptions.UNBOUNDED) {
			// nothing is ever folded: no lock, no index, one delivery per change
			add(new Delivery(() -> {
				taken.run();
				sink.accept(type, event);
			}, true));
			return;
		}
		synchronized (this.adding) {
			if (this.closed) {
				return;
			}
			long backlog = backlog() + this.observer.upstream();
			if (this.bound.isExceeded(backlog)) {
				if (this.bound.overflow() == BacklogOptions.Overflow.FAIL) {
					if (this.overflowed.compareAndSet(false, true)) {
						this.observer.overflowed(backlog);
					}
				}
				else if (fold(key, new Coalescing.Change<>(type, event), taken)) {
					return;
				}
			}
			KeyedEvent<T> entry = new KeyedEvent<>(key, new Coalescing.Change<>(type, event), sink, taken);
			this.latest.put(key, entry);
			add(new Delivery(entry, true));
		}
	}

	@SuppressWarnings("unchecked")
	private <T extends HasMetadata> boolean fold(String key, Coalescing.Change<T> next, Runnable taken) {
		KeyedEvent<T> waiting = (KeyedEvent<T>) this.latest.get(key);
		if (waiting == null) {
			return false;
		}
		int folded = waiting.fold(next, taken);
		if (folded < 0) {
			return false;
		}
		this.observer.coalesced(folded);
		if (waiting.vanished()) {
			this.latest.remove(key, waiting);
			this.resourceEvents.decrementAndGet();
		}
		return true;
	}

	/**
	 * Queue something that must happen after what is queued now and before what is queued
	 * later (a list completing, a state change).
	 * @param action what to run
	 */
	public void marker(Runnable action) {
		synchronized (this.adding) {
			// nothing queued later is folded into a change before this marker
			this.latest.clear();
			add(new Delivery(action, false));
		}
	}

	private void add(Delivery delivery) {
		if (this.closed) {
			return;
		}
		if (delivery.event()) {
			this.resourceEvents.incrementAndGet();
		}
		this.deliveries.add(delivery);
		schedule();
	}

	/**
	 * Return whether the backlog is at the bound.
	 * @return whether overflow applies to the next change
	 */
	public boolean isAtBound() {
		return this.bound.isExceeded(backlog() + this.observer.upstream());
	}

	/**
	 * Return the number of resource events queued or being delivered.
	 * @return the number of events
	 */
	public long backlog() {
		return this.resourceEvents.get();
	}

	/**
	 * Return whether the calling thread is the one delivering this queue's events.
	 * @return whether called from a delivery
	 */
	public boolean isDelivering() {
		return Thread.currentThread() == this.worker;
	}

	/**
	 * Return whether the queue was closed.
	 * @return whether closed
	 */
	public boolean isClosed() {
		return this.closed;
	}

	/**
	 * Drop what is queued and take nothing more. A delivery in progress runs to its end.
	 */
	public void close() {
		this.closed = true;
		this.deliveries.clear();
		this.latest.clear();
		this.resourceEvents.set(0);
	}

	private void schedule() {
		if (!this.closed && this.draining.compareAndSet(false, true)) {
			submit();
		}
	}

	/**
	 * Hand the turn to the executor; called holding the turn ({@code draining}). A
	 * rejected turn stays held, so that events queued meanwhile do not ask the executor
	 * again, and is asked for again after a backoff.
	 */
	private void submit() {
		if (this.closed) {
			this.draining.set(false);
			return;
		}
		try {
			this.executor.execute(this::drain);
			this.rejectedInARow.set(0);
		}
		catch (RejectedExecutionException ex) {
			this.observer.rejected();
			Duration delay = retryDelay(this.rejectedInARow.getAndIncrement());
			try {
				this.observer.retryLater(this::submit, delay);
			}
			catch (RejectedExecutionException stopping) {
				// nothing left to retry on: the watch is stopping
				this.draining.set(false);
			}
		}
	}

	/**
	 * Return the wait before the next attempt: doubling from {@link #FIRST_RETRY}, capped
	 * at {@link #MAX_RETRY}, half of it random so that many rejected queues do not ask
	 * again at the same moment.
	 * @param attempt the rejections in a row before, from 0
	 * @return the wait
	 */
	static Duration retryDelay(int attempt) {
		long cap = MAX_RETRY.toMillis();
		long millis = Math.min(cap, FIRST_RETRY.toMillis() << Math.min(attempt, 20));
		return Duration.ofMillis(millis / 2 + ThreadLocalRandom.current().nextLong(millis / 2 + 1));
	}

	private void drain() {
		this.worker = Thread.currentThread();
		try {
			Delivery delivery;
			int delivered = 0;
			while (!this.closed && delivered++ < BATCH && (delivery = this.deliveries.poll()) != null) {
				try {
					delivery.action().run();
				}
				catch (Throwable ex) {
					// listeners are isolated by the publisher: this is the starter's own
					// failure
					logger.error("Delivering an informer event failed; later events are not affected", ex);
				}
				finally {
					// an event counts as waiting until every listener is done with it (a
					// vanished one stopped counting when it vanished)
					if (delivery.event() && !this.closed
							&& !(delivery.action() instanceof KeyedEvent<?> keyed && keyed.vanished())) {
						this.resourceEvents.decrementAndGet();
					}
				}
			}
		}
		finally {
			this.worker = null;
			this.draining.set(false);
		}
		if (!this.deliveries.isEmpty()) {
			schedule();
		}
	}

	/**
	 * What a bounded queue needs from its watch.
	 */
	public interface Backlog {

		/**
		 * A watch with nothing before its queue, that ignores folds and overflow.
		 */
		Backlog NONE = new Backlog() {
		};

		/**
		 * Return the changes waiting before the queue (in fabric8's).
		 * @return the changes
		 */
		default long upstream() {
			return 0;
		}

		/**
		 * Hear of changes folded into others.
		 * @param changes how many
		 */
		default void coalesced(int changes) {
		}

		/**
		 * Hear, once, that the backlog reached a bound that fails.
		 * @param backlog the backlog
		 */
		default void overflowed(long backlog) {
		}

		/**
		 * Hear that the executor rejected the queue's turn, which is retried.
		 */
		default void rejected() {
		}

		/**
		 * Run the retry of a rejected turn after a delay, on a thread that is not the
		 * listeners'.
		 * @param retry the retry
		 * @param delay the delay
		 * @throws RejectedExecutionException when the watch is stopping
		 */
		default void retryLater(Runnable retry, Duration delay) {
			CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS).execute(retry);
		}

	}

	private record Delivery(Runnable action, boolean event) {

	}

	/**
	 * The waiting change of one object: later changes fold into it until it is taken.
	 */
	private final class KeyedEvent<T extends HasMetadata> implements Runnable {

		private final String key;

		private final BiConsumer<EventType, ResourceEvent<T>> sink;

		private final List<Runnable> taken = new ArrayList<>(1);

		// guarded by this
		private Coalescing.@Nullable Change<T> change;

		private boolean isTaken;

		KeyedEvent(String key, Coalescing.Change<T> change, BiConsumer<EventType, ResourceEvent<T>> sink,
				Runnable taken) {
			this.key = key;
			this.change = change;
			this.sink = sink;
			this.taken.add(taken);
		}

		/**
		 * Fold a later change in, unless taken already or not foldable.
		 * @return the changes folded away, -1 when not folded
		 */
		synchronized int fold(Coalescing.Change<T> next, Runnable taken) {
			Coalescing.Change<T> current = this.change;
			if (this.isTaken || current == null) {
				return -1;
			}
			Coalescing.Folded<T> folded = Coalescing.fold(current, next);
			if (folded == null) {
				return -1;
			}
			this.change = folded.change();
			this.taken.add(taken);
			return folded.changesFolded();
		}

		synchronized boolean vanished() {
			return this.change == null;
		}

		@Override
		public void run() {
			Coalescing.Change<T> change;
			synchronized (this) {
				this.isTaken = true;
				change = this.change;
			}
			ListenerQueue.this.latest.remove(this.key, this);
			this.taken.forEach(Runnable::run);
			if (change != null) {
				this.sink.accept(change.type(), change.event());
			}
		}

	}

}
