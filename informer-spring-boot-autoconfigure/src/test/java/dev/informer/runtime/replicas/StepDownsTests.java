package dev.informer.runtime.replicas;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import dev.informer.DeliveryMode;
import dev.informer.InformerState;
import dev.informer.ResourceCache;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchError;
import dev.informer.watch.WatchSnapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * {@link StepDowns} and {@link StaleWatches}: when a replica gives its part in the
 * group's delivery up because its watches are stale, and when it competes again. Stale
 * after 65 s of silence, step down after 120 s behind (the defaults), Lease 15 s, retry 2
 * s: a takeover bound of 23 s.
 */
class StepDownsTests {

	private static final Instant START = Instant.parse("2026-12-04T10:00:00Z");

	private final MutableClock clock = new MutableClock();

	private final AtomicReference<Supplier<WatchSnapshot>> watch = new AtomicReference<>();

	private final AtomicBoolean othersTakeOver = new AtomicBoolean();

	private final StepDowns stepDowns = new StepDowns(
			new DeliveryOptions(DeliveryMode.LEADER, Map.of(), "g", "a", "ns", Duration.ofSeconds(15),
					Duration.ofSeconds(10), Duration.ofSeconds(2), false),
			this.clock, List.of(new OneWatch(() -> this.watch.get().get())), this.othersTakeOver::get);

	@Test
	void aWatchSilentAfterItsRestartIsStaleOnceBehindForLongerThanTheBound() {
		// the last message at START, silent from then on; restarted at 75 s, never
		// connected again: one spell from START
		this.watch.set(watching(START, 0));
		at(60);
		assertThat(this.stepDowns.judge(true)).isEqualTo(StepDowns.Decision.STAY);
		at(70);
		assertThat(this.stepDowns.judge(true)).isEqualTo(StepDowns.Decision.STAY);
		this.watch.set(notWatching(START.plusSeconds(75)));
		at(100);
		assertThat(this.stepDowns.judge(true)).isEqualTo(StepDowns.Decision.STAY);
		at(121);
		assertThat(this.stepDowns.judge(true)).isEqualTo(StepDowns.Decision.STEP_DOWN);
		assertThat(this.stepDowns.snapshot().steppedDown()).isTrue();
		assertThat(this.stepDowns.snapshot().stepDowns()).isOne();
		assertThat(this.stepDowns.snapshot().staleWatches()).singleElement()
			.asString()
			.contains("configmaps in ns", "not watching", "behind for 121 s");
	}

	@Test
	void aRestartThatHelpsEndsTheSpell() {
		this.watch.set(watching(START, 0));
		at(70);
		this.stepDowns.judge(true);
		this.watch.set(notWatching(START.plusSeconds(75)));
		at(76);
		this.stepDowns.judge(true);
		// connected again and a message arrived
		this.watch.set(watching(START.plusSeconds(77), 0));
		at(78);
		assertThat(this.stepDowns.judge(true)).isEqualTo(StepDowns.Decision.STAY);
		this.watch.set(notWatching(START.plusSeconds(150)));
		at(200);
		assertThat(this.stepDowns.judge(true)).as("a new spell, 50 s long").isEqualTo(StepDowns.Decision.STAY);
	}

	@Test
	void aBacklogBehindASlowListenerAloneNeverStepsDown() {
		for (int s = 0; s <= 600; s += 2) {
			// messages keep arriving; listeners are 100,000 changes behind
			this.watch.set(watching(START.plusSeconds(s), 100_000));
			at(s);
			assertThat(this.stepDowns.judge(true)).isEqualTo(StepDowns.Decision.STAY);
		}
	}

	@Test
	void aCacheBehindTheServerForLongerThanTheBoundIsStaleEvenWhileMessagesArrive() {
		at(200);
		this.watch.set(lagging(START.plusSeconds(199), Duration.ofSeconds(119)));
		assertThat(this.stepDowns.judge(true)).isEqualTo(StepDowns.Decision.STAY);
		this.watch.set(lagging(START.plusSeconds(199), Duration.ofSeconds(125)));
		assertThat(this.stepDowns.judge(true)).isEqualTo(StepDowns.Decision.STEP_DOWN);
	}

	@Test
	void aReplicaThatSteppedDownCompetesAgainOnceItsWatchesAreCurrent() {
		stepDown();
		this.othersTakeOver.set(true);
		at(200);
		assertThat(this.stepDowns.judge(false)).isEqualTo(StepDowns.Decision.STAY);
		this.watch.set(watching(START.plusSeconds(201), 0));
		at(202);
		assertThat(this.stepDowns.judge(false)).isEqualTo(StepDowns.Decision.COMPETE);
		assertThat(this.stepDowns.snapshot().steppedDown()).isFalse();
		assertThat(this.stepDowns.snapshot().staleWatches()).isEmpty();
	}

	@Test
	void whenNoOtherReplicaTakesOverTheStaleReplicaCompetesAgainAndKeepsItsPartUntilCurrent() {
		stepDown();
		// nobody renews the Lease: every replica stale, or the API server gone
		at(121 + 23);
		assertThat(this.stepDowns.judge(false)).isEqualTo(StepDowns.Decision.STAY);
		at(121 + 24);
		assertThat(this.stepDowns.judge(false)).isEqualTo(StepDowns.Decision.COMPETE);
		at(300);
		assertThat(this.stepDowns.judge(true)).as("no second step-down while stale").isEqualTo(StepDowns.Decision.STAY);
		assertThat(this.stepDowns.snapshot().stepDowns()).isOne();
		// current once, then stale again: it steps down again
		this.watch.set(watching(START.plusSeconds(301), 0));
		at(302);
		assertThat(this.stepDowns.judge(true)).isEqualTo(StepDowns.Decision.STAY);
		this.watch.set(notWatching(START.plusSeconds(303)));
		at(303 + 121);
		assertThat(this.stepDowns.judge(true)).isEqualTo(StepDowns.Decision.STEP_DOWN);
	}

	@Test
	void aTakeoverSeenLateStillWaitsTheWholeBoundAfterTheOtherStoppedRenewing() {
		stepDown();
		at(130);
		this.othersTakeOver.set(true);
		assertThat(this.stepDowns.judge(false)).isEqualTo(StepDowns.Decision.STAY);
		this.othersTakeOver.set(false);
		at(130 + 23);
		assertThat(this.stepDowns.judge(false)).isEqualTo(StepDowns.Decision.STAY);
		at(130 + 24);
		assertThat(this.stepDowns.judge(false)).isEqualTo(StepDowns.Decision.COMPETE);
	}

	@Test
	void aWatchThatHasNotSyncedIsNotStale() {
		this.watch.set(() -> {
			WatchSnapshot unsynced = notWatching(START).get();
			return new WatchSnapshot(unsynced.takenAt(), unsynced.namespace(),
					new WatchSnapshot.Lifecycle(InformerState.LISTING, START, null), unsynced.connection(),
					unsynced.cache(), unsynced.lists(), unsynced.events(), unsynced.errors(), unsynced.resync(),
					unsynced.availability(), unsynced.lag(), unsynced.liveness());
		});
		at(600);
		assertThat(this.stepDowns.judge(true)).isEqualTo(StepDowns.Decision.STAY);
	}

	private void stepDown() {
		this.watch.set(notWatching(START));
		at(10);
		this.stepDowns.judge(true);
		at(121);
		assertThat(this.stepDowns.judge(true)).isEqualTo(StepDowns.Decision.STEP_DOWN);
	}

	private void at(long seconds) {
		this.clock.now = START.plusSeconds(seconds);
	}

	private Supplier<WatchSnapshot> watching(Instant lastByte, long backlog) {
		return () -> snapshot(true, null, lastByte, backlog, null);
	}

	private Supplier<WatchSnapshot> notWatching(Instant since) {
		return () -> snapshot(false, since, since, 0, null);
	}

	private Supplier<WatchSnapshot> lagging(Instant lastByte, Duration staleFor) {
		return () -> snapshot(true, null, lastByte, 0, staleFor);
	}

	private WatchSnapshot snapshot(boolean watching, @Nullable Instant notWatchingSince, Instant lastByte, long backlog,
			@Nullable Duration staleFor) {
		Instant now = this.clock.instant();
		return new WatchSnapshot(now, "ns", new WatchSnapshot.Lifecycle(InformerState.WATCHING, START, START),
				new WatchSnapshot.Connection(watching, notWatchingSince, 0),
				new WatchSnapshot.Cache(10, backlog, false, 0, 0, "100"),
				new WatchSnapshot.Lists(null, 1, Duration.ZERO, Map.of()),
				new WatchSnapshot.Events(Map.of(), 0, 0, null, null), new WatchSnapshot.Errors(null, 0, List.of()),
				new WatchSnapshot.Resync(Duration.ZERO, 0, Duration.ZERO, null, null, null),
				new WatchSnapshot.Availability(1.0, List.of(), List.of()), (staleFor != null)
						? new WatchSnapshot.Lag("200", now, 100L, staleFor, 1, 0, null) : WatchSnapshot.Lag.NONE,
				new WatchSnapshot.Liveness(lastByte, null, 0));
	}

	private static final class MutableClock extends Clock {

		private Instant now = START;

		@Override
		public ZoneOffset getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(java.time.ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

	/** An informer of one watch, whose snapshots the test sets. */
	private record OneWatch(Supplier<WatchSnapshot> snapshots) implements QuietInformer {

		@Override
		public List<Watch> getWatches() {
			return List.of(new Watch() {

				@Override
				public @Nullable String getNamespace() {
					return "ns";
				}

				@Override
				public WatchSnapshot snapshot() {
					WatchSnapshot snapshot = OneWatch.this.snapshots.get();
					return snapshot;
				}

				@Override
				public InformerState getState() {
					return snapshot().lifecycle().state();
				}

				@Override
				public boolean isSynced() {
					return true;
				}

				@Override
				public boolean isWatching() {
					return snapshot().connection().watching();
				}

				@Override
				public @Nullable Instant getNotWatchingSince() {
					return snapshot().connection().notWatchingSince();
				}

				@Override
				public @Nullable WatchError getLastError() {
					return null;
				}

				@Override
				public @Nullable Instant getLastActivityAt() {
					return null;
				}

			});
		}

		@Override
		public ResourceCache<?> getCache() {
			return mock(ResourceCache.class);
		}

	}

}
