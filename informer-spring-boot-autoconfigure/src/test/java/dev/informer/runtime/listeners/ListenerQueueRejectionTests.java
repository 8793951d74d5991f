package dev.informer.runtime.listeners;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link ListenerQueue} whose executor rejects its turn (a bounded pool, busy): the
 * turn is kept and asked for again after a backoff, with no further event, one request
 * per retry (never a spin), and not at all once the queue closed. The retries here run
 * when the test says, so each step is seen.
 */
class ListenerQueueRejectionTests {

	private final RejectingExecutor executor = new RejectingExecutor();

	private final Retries retries = new Retries();

	private final ListenerQueue queue = new ListenerQueue(this.executor, BacklogOptions.UNBOUNDED, this.retries);

	private final List<String> delivered = new ArrayList<>();

	@Test
	void aRejectedDeliveryIsRetriedWithoutAnotherEventUntilTheExecutorAccepts() {
		this.executor.rejectNext(3);
		this.queue.event(() -> this.delivered.add("only"));
		assertThat(this.delivered).isEmpty();
		while (this.delivered.isEmpty() && !this.retries.pending.isEmpty()) {
			this.retries.runNext();
		}
		assertThat(this.delivered).containsExactly("only");
		assertThat(this.retries.rejected).hasValue(3);
		// one request at first, then one per retry
		assertThat(this.executor.requests).hasValue(4);
		assertThat(this.retries.pending).isEmpty();
	}

	@Test
	void eventsQueuedWhileATurnIsRejectedWaitForItsRetryInOrder() {
		this.executor.rejectNext(1);
		this.queue.event(() -> this.delivered.add("1"));
		this.queue.marker(() -> this.delivered.add("list complete"));
		this.queue.event(() -> this.delivered.add("2"));
		assertThat(this.executor.requests).as("no request per event while rejected").hasValue(1);
		this.retries.runNext();
		assertThat(this.delivered).containsExactly("1", "list complete", "2");
	}

	@Test
	void aClosedQueueStopsRetrying() {
		this.executor.rejectNext(Integer.MAX_VALUE);
		this.queue.event(() -> this.delivered.add("dropped"));
		this.queue.close();
		this.retries.runNext();
		assertThat(this.retries.pending).isEmpty();
		assertThat(this.executor.requests).hasValue(1);
		assertThat(this.delivered).isEmpty();
	}

	@Test
	void aQueueWhoseRetryCannotBeScheduledTakesItsTurnAgainWithTheNextEvent() {
		this.executor.rejectNext(1);
		this.retries.stopping = true;
		this.queue.event(() -> this.delivered.add("1"));
		this.queue.event(() -> this.delivered.add("2"));
		assertThat(this.delivered).containsExactly("1", "2");
	}

	@Test
	void theBackoffDoublesFromTenMillisecondsToACapOfOneSecondHalfOfItRandom() {
		for (int i = 0; i < 100; i++) {
			assertThat(ListenerQueue.retryDelay(0)).isBetween(Duration.ofMillis(5), Duration.ofMillis(10));
			assertThat(ListenerQueue.retryDelay(3)).isBetween(Duration.ofMillis(40), Duration.ofMillis(80));
			assertThat(ListenerQueue.retryDelay(7)).isBetween(Duration.ofMillis(500), Duration.ofSeconds(1));
			assertThat(ListenerQueue.retryDelay(Integer.MAX_VALUE)).isBetween(Duration.ofMillis(500),
					Duration.ofSeconds(1));
		}
	}

	/**
	 * Runs what it accepts at once; rejects as told.
	 */
	private static final class RejectingExecutor implements Executor {

		private final AtomicInteger requests = new AtomicInteger();

		private int rejections;

		void rejectNext(int rejections) {
			this.rejections = rejections;
		}

		@Override
		public void execute(Runnable command) {
			this.requests.incrementAndGet();
			if (this.rejections > 0) {
				this.rejections--;
				throw new RejectedExecutionException("busy");
			}
			command.run();
		}

	}

	/**
	 * Holds the retries until the test runs them, and counts rejections.
	 */
	private static final class Retries implements ListenerQueue.Backlog {

		private final Deque<Runnable> pending = new ArrayDeque<>();

		private final AtomicInteger rejected = new AtomicInteger();

		private boolean stopping;

		@Override
		public void rejected() {
			this.rejected.incrementAndGet();
		}

		@Override
		public void retryLater(Runnable retry, Duration delay) {
			if (this.stopping) {
				throw new RejectedExecutionException("stopping");
			}
			assertThat(delay).isPositive();
			this.pending.add(retry);
		}

		void runNext() {
			Runnable retry = this.pending.poll();
			if (retry != null) {
				retry.run();
			}
		}

	}

}
