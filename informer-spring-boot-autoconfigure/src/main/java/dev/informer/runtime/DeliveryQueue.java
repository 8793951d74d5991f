package dev.informer.runtime;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The events of one watch, waiting for listeners: run one at a time, in the order they
 * were queued, on a thread of a shared executor that is held only while there is work.
 * <p>
 * The queue outlives the fabric8 informers that feed it: a relist replaces the informer,
 * and what the old one had queued is still delivered, before anything the new one queues.
 * So a listener is never called by two informers at once, never interrupted by a
 * replacement (it does not run on fabric8's threads, which fabric8 interrupts when it
 * stops an informer), and a relist never waits for a listener.
 */
final class DeliveryQueue {

	private static final Log logger = LogFactory.getLog(DeliveryQueue.class);

	private final Queue<Delivery> deliveries = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean draining = new AtomicBoolean();

	private final AtomicLong resourceEvents = new AtomicLong();

	/**
	 * Deliveries in a row before the queue hands its thread on: with more busy queues
	 * than threads, each gets its turn.
	 */
	static final int BATCH = 256;

	private final Executor executor;

	private volatile boolean closed;

	private volatile @Nullable Thread worker;

	DeliveryQueue(Executor executor) {
		this.executor = executor;
	}

	/**
	 * Queue the delivery of a resource event.
	 * @param delivery what to run
	 */
	void event(Runnable delivery) {
		add(new Delivery(delivery, true));
	}

	/**
	 * Queue something that must happen after what is queued now and before what is queued
	 * later (a list completing, a state change).
	 * @param action what to run
	 */
	void marker(Runnable action) {
		add(new Delivery(action, false));
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
	 * Return the number of resource events queued or being delivered.
	 * @return the number of events
	 */
	long backlog() {
		return this.resourceEvents.get();
	}

	/**
	 * Return whether the calling thread is the one delivering this queue's events.
	 * @return whether called from a delivery
	 */
	boolean isDelivering() {
		return Thread.currentThread() == this.worker;
	}

	/**
	 * Return whether the queue was closed.
	 * @return whether closed
	 */
	boolean isClosed() {
		return this.closed;
	}

	/**
	 * Drop what is queued and take nothing more. A delivery in progress runs to its end.
	 */
	void close() {
		this.closed = true;
		this.deliveries.clear();
		this.resourceEvents.set(0);
	}

	private void schedule() {
		if (!this.closed && this.draining.compareAndSet(false, true)) {
			try {
				this.executor.execute(this::drain);
			}
			catch (RejectedExecutionException ex) {
				this.draining.set(false);
				if (!this.closed) {
					throw ex;
				}
			}
		}
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
					// an event counts as waiting until every listener is done with it
					if (delivery.event() && !this.closed) {
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

	private record Delivery(Runnable action, boolean event) {

	}

}
