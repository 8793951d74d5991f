package dev.informer.runtime.status;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.informer.InformerState;
import dev.informer.test.MutableClock;
import dev.informer.watch.RelistReason;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The transitions of a watch as a function, without a server or a status around them, and
 * the one writer that runs them, under several threads posting at once.
 */
class WatchTransitionsTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	@Test
	void aStepReturnsANewStateAndLeavesTheOldOneAsItWas() {
		WatchState initial = WatchState.initial(START, 4);
		WatchTransitions.Step step = WatchTransitions.step(initial, new WatchInput.ListStarted(RelistReason.INITIAL),
				START.plusSeconds(1));
		assertThat(step.state().state()).isEqualTo(InformerState.LISTING);
		assertThat(step.change())
			.isEqualTo(new WatchTransitions.Change(InformerState.STARTING, InformerState.LISTING, "initial list"));
		assertThat(initial.state()).isEqualTo(InformerState.STARTING);
		assertThat(initial.connection().notWatchingSince()).isNull();
	}

	@Test
	void theFirstCompletedListIsTheSyncAndALaterOneIsNot() {
		WatchState state = synced(WatchState.initial(START, 4));
		assertThat(state.isSynced()).isTrue();
		WatchTransitions.Step relist = WatchTransitions.step(
				WatchTransitions.step(state, new WatchInput.ListStarted(RelistReason.GONE), START).state(),
				new WatchInput.ListCompleted(1), START.plusSeconds(2));
		assertThat(relist.firstSync()).isFalse();
		assertThat(relist.change().cause()).isEqualTo("relist (410) completed");
		assertThat(relist.state().lifecycle().syncedAt()).isEqualTo(START.plusSeconds(1));
		assertThat(relist.state().availability().snapshot().relists()).containsExactly(START);
	}

	@Test
	void aStoppedWatchChangesNoStateUntilRestartedAndThenListsAgainAsAtFirst() {
		WatchState stopped = WatchTransitions
			.step(synced(WatchState.initial(START, 4)), new WatchInput.Stopped(), START)
			.state();
		for (WatchInput input : List.of(new WatchInput.Sampled(true, "7"), new WatchInput.Silent("silent"),
				new WatchInput.Failed(500, "InternalError", "boom"), new WatchInput.GaveUp("gave up", null),
				new WatchInput.Replacing(10, "stalled"), new WatchInput.ListStarted(RelistReason.ERROR))) {
			WatchTransitions.Step step = WatchTransitions.step(stopped, input, START.plusSeconds(5));
			assertThat(step.state().state()).as(input.toString()).isEqualTo(InformerState.STOPPED);
			assertThat(step.change()).as(input.toString()).isNull();
		}
		WatchState restarted = WatchTransitions.step(stopped, new WatchInput.Restarted(), START.plusSeconds(6)).state();
		assertThat(restarted.state()).isEqualTo(InformerState.STARTING);
		assertThat(restarted.isSynced()).isFalse();
		assertThat(WatchTransitions.step(restarted, new WatchInput.ListStarted(RelistReason.MANUAL), START).change())
			.isEqualTo(new WatchTransitions.Change(InformerState.STARTING, InformerState.LISTING, "initial list"));
	}

	@Test
	void aSilentConnectionIsOneReconnectAndOneLossInTheWindowAndASilentRestart() {
		WatchState watching = WatchTransitions
			.step(synced(WatchState.initial(START, 4)), new WatchInput.Sampled(true, null), START.plusSeconds(2))
			.state();
		WatchTransitions.Step step = WatchTransitions.step(watching, new WatchInput.Silent("nothing for 90 s"),
				START.plusSeconds(3));
		assertThat(step.change()).isEqualTo(
				new WatchTransitions.Change(InformerState.WATCHING, InformerState.RECONNECTING, "nothing for 90 s"));
		assertThat(step.state().connection().reconnects()).isEqualTo(1);
		assertThat(step.state().connection().watching()).isFalse();
		assertThat(step.state().connection().notWatchingSince()).isEqualTo(START.plusSeconds(3));
		assertThat(step.state().availability().snapshot().reconnects()).containsExactly(START.plusSeconds(3));
		assertThat(step.state().silentRestarts()).isEqualTo(1);
	}

	@Test
	void changesArePublishedOneAtATimeInTheOrderOfTheStepsWhateverThreadPostsThem() throws Exception {
		List<String> published = new ArrayList<>();
		CountDownLatch overlapping = new CountDownLatch(1);
		int[] inside = new int[1];
		WatchStatus status = new WatchStatus("team-a", Duration.ZERO, new MutableClock(START),
				(watch, previous, current, cause) -> {
					// a listener that is not thread-safe sees one call at a time
					if (++inside[0] > 1) {
						overlapping.countDown();
					}
					published.add(previous + "->" + current);
					inside[0]--;
				});
		status.post(new WatchInput.ListStarted(RelistReason.INITIAL));
		status.post(new WatchInput.ListCompleted(0));
		int threads = 4;
		int rounds = 2_000;
		CyclicBarrier start = new CyclicBarrier(threads);
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> posted = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				boolean open = (t % 2 == 0);
				posted.add(pool.submit(() -> {
					start.await();
					for (int i = 0; i < rounds; i++) {
						status.post(new WatchInput.Sampled(open, null));
						status.post(new WatchInput.Sampled(!open, null));
					}
					return null;
				}));
			}
			for (Future<?> future : posted) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(overlapping.getCount()).as("listener entered twice at once").isOne();
		// in the order of the steps: each change starts where the one before ended
		synchronized (published) {
			for (int i = 1; i < published.size(); i++) {
				String previousEnd = published.get(i - 1).split("->")[1];
				assertThat(published.get(i)).as("change " + i).startsWith(previousEnd + "->");
			}
			assertThat(published.get(published.size() - 1).split("->")[1]).isEqualTo(status.getState().toString());
		}
	}

	private static WatchState synced(WatchState state) {
		WatchState listing = WatchTransitions.step(state, new WatchInput.ListStarted(RelistReason.INITIAL), START)
			.state();
		WatchTransitions.Step synced = WatchTransitions.step(listing, new WatchInput.ListCompleted(2),
				START.plusSeconds(1));
		assertThat(synced.firstSync()).isTrue();
		return synced.state();
	}

}
