package dev.informer.runtime.status;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import dev.informer.InformerState;
import dev.informer.runtime.TestWatches;
import dev.informer.test.MutableClock;
import dev.informer.watch.EventType;
import dev.informer.watch.RelistReason;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * State tracking of one watch, with a clock moved by hand.
 */
class WatchStatusTests {

	private final MutableClock clock = MutableClock.startingAt("2026-01-01T00:00:00Z");

	private final List<String> transitions = new CopyOnWriteArrayList<>();

	private final WatchStatus status = new WatchStatus("team-a", Duration.ofMinutes(10), this.clock,
			(watch, previous, current, cause) -> this.transitions.add(previous + "->" + current + " (" + cause + ")"));

	@Test
	void theInitialListSyncsAndEveryTransitionIsReportedWithItsCause() {
		this.status.post(new WatchInput.ListStarted(RelistReason.INITIAL));
		this.clock.advance(Duration.ofMillis(250));
		assertThat(this.status.post(new WatchInput.ListCompleted(3)).firstSync()).isTrue();
		assertThat(this.status.isSynced()).isTrue();
		assertThat(this.status.snapshot().lifecycle().syncedAt()).isEqualTo(this.clock.instant());
		assertThat(this.status.snapshot().lists().last()).satisfies((list) -> {
			assertThat(list.items()).isEqualTo(3);
			assertThat(list.duration()).isEqualTo(Duration.ofMillis(250));
			assertThat(list.trigger()).isEqualTo(RelistReason.INITIAL);
		});
		assertThat(this.status.snapshot().lists().count()).isEqualTo(1);
		assertThat(this.status.snapshot().lists().totalTime()).isEqualTo(Duration.ofMillis(250));
		assertThat(this.transitions).containsExactly("STARTING->LISTING (initial list)",
				"LISTING->WATCHING (initial list completed)");
	}

	@Test
	void aLostWatchIsTimedFromTheSampleThatFoundItClosedAndCountedOnce() {
		synced();
		this.status.post(new WatchInput.Sampled(true, null));
		assertThat(this.status.getNotWatchingSince()).isNull();
		this.clock.advance(Duration.ofMinutes(7));
		this.status.post(new WatchInput.Sampled(false, null));
		this.clock.advance(Duration.ofSeconds(1));
		this.status.post(new WatchInput.Sampled(false, null));
		assertThat(this.status.getState()).isEqualTo(InformerState.RECONNECTING);
		assertThat(this.status.isWatching()).isFalse();
		assertThat(this.status.getNotWatchingSince()).isEqualTo(at("2026-01-01T00:07:00Z"));
		assertThat(this.status.snapshot().connection().reconnects()).isEqualTo(1);
		this.status.post(new WatchInput.Sampled(true, null));
		assertThat(this.status.getState()).isEqualTo(InformerState.WATCHING);
		assertThat(this.status.getNotWatchingSince()).isNull();
		assertThat(this.transitions).endsWith("WATCHING->RECONNECTING (watch closed)",
				"RECONNECTING->WATCHING (watch re-established)");
	}

	@Test
	void theWatchIsNotOpenUntilASampleFindsItOpenAfterTheList() {
		this.status.post(new WatchInput.ListStarted(RelistReason.INITIAL));
		this.status.post(new WatchInput.ListCompleted(0));
		assertThat(this.status.isWatching()).isFalse();
		assertThat(this.status.getNotWatchingSince()).isEqualTo(this.clock.instant());
		// not yet seen open, so not a reconnect
		this.status.post(new WatchInput.Sampled(false, null));
		assertThat(this.status.snapshot().connection().reconnects()).isZero();
		assertThat(this.status.getState()).isEqualTo(InformerState.WATCHING);
	}

	@Test
	void errorsAfterTheSyncMeanReconnectingAndCountOneReconnectPerLoss() {
		synced();
		this.status.post(new WatchInput.Sampled(true, null));
		this.status.post(WatchInput.Failed.of(TestWatches.forbidden()));
		this.clock.advance(Duration.ofSeconds(2));
		this.status.post(WatchInput.Failed.of(TestWatches.forbidden()));
		assertThat(this.status.getState()).isEqualTo(InformerState.RECONNECTING);
		assertThat(this.status.snapshot().connection().reconnects()).isEqualTo(1);
		assertThat(this.status.snapshot().errors().consecutive()).isEqualTo(2);
		assertThat(this.status.getLastError()).satisfies((error) -> {
			assertThat(error.httpCode()).isEqualTo(403);
			assertThat(error.reason()).isEqualTo("Forbidden");
			assertThat(error.at()).isEqualTo(this.clock.instant());
		});
		assertThat(this.transitions).last().asString().isEqualTo("WATCHING->RECONNECTING (HTTP 403 Forbidden)");
	}

	@Test
	void relistsAreCountedByTrigger() {
		synced();
		// what a fabric8 informer created by a manual relist reports, as it happens
		ListTrigger trigger = new ListTrigger(RelistReason.MANUAL);
		this.status.post(new WatchInput.ListStarted(trigger.next()));
		trigger.listed();
		this.status.post(new WatchInput.ListCompleted(4));
		assertThat(this.status.snapshot().lists().last().trigger()).isEqualTo(RelistReason.MANUAL);
		// fabric8 lists again without reporting an error only after 410 Gone
		this.status.post(new WatchInput.ListStarted(trigger.next()));
		trigger.listed();
		this.status.post(new WatchInput.ListCompleted(4));
		trigger.failed(TestWatches.serverError());
		this.status.post(WatchInput.Failed.of(TestWatches.serverError()));
		this.status.post(new WatchInput.ListStarted(trigger.next()));
		assertThat(this.status.getState()).isEqualTo(InformerState.RELISTING);
		this.status.post(new WatchInput.ListCompleted(4));
		assertThat(this.status.snapshot().lists().relists()).containsEntry("manual", 1L)
			.containsEntry("410", 1L)
			.containsEntry("error", 1L);
		assertThat(this.status.snapshot().lists().relistCount()).isEqualTo(3);
		assertThat(this.status.snapshot().lists().last().trigger()).isEqualTo(RelistReason.ERROR);
		assertThat(this.status.snapshot().lists().count()).isEqualTo(4);
	}

	@Test
	void resyncBurstsAreCountedAsCyclesWithTheirDuration() {
		synced();
		assertThat(this.status.snapshot().resync().nextDueAt())
			.isEqualTo(this.clock.instant().plus(Duration.ofMinutes(10)));
		this.clock.advance(Duration.ofMinutes(10));
		this.status.observed().delivered(EventType.RESYNC, 0);
		this.clock.advance(Duration.ofMillis(300));
		this.status.observed().delivered(EventType.RESYNC, 0);
		this.clock.advance(Duration.ofMillis(200));
		this.status.observed().delivered(EventType.RESYNC, 0);
		assertThat(this.status.snapshot().resync().cycles()).isEqualTo(1);
		assertThat(this.status.snapshot().resync().lastDuration()).isEqualTo(Duration.ofMillis(500));
		assertThat(this.status.snapshot().resync().nextDueAt()).isEqualTo(at("2026-01-01T00:20:00Z"));
		this.clock.advance(Duration.ofMinutes(10));
		this.status.observed().delivered(EventType.RESYNC, 0);
		assertThat(this.status.snapshot().resync().cycles()).isEqualTo(2);
		assertThat(this.status.snapshot().resync().lastDuration()).isZero();
		assertThat(this.status.snapshot().resync().totalTime()).isEqualTo(Duration.ofMillis(500));
		assertThat(this.status.snapshot().events().count(EventType.RESYNC)).isEqualTo(4);
		assertThat(this.status.snapshot().resync().lastAt()).isEqualTo(this.clock.instant());
	}

	@Test
	void activityIsTheLaterOfTheLastEventAndTheLastResourceVersionChange() {
		synced();
		assertThat(this.status.getLastActivityAt()).isNull();
		this.status.observed().delivered(EventType.ADDED, 1);
		this.clock.advance(Duration.ofSeconds(60));
		this.status.post(new WatchInput.Sampled(true, "42"));
		assertThat(this.status.getLastActivityAt()).isEqualTo(this.clock.instant());
		this.clock.advance(Duration.ofSeconds(60));
		// a bookmark with the same version is no progress
		this.status.post(new WatchInput.Sampled(true, "42"));
		assertThat(this.status.getLastActivityAt()).isEqualTo(this.clock.instant().minusSeconds(60));
		assertThat(this.status.snapshot().events().listenerFailures()).isEqualTo(1);
	}

	@Test
	void stoppedIsFinal() {
		synced();
		this.status.post(new WatchInput.Stopped());
		this.status.post(new WatchInput.Sampled(true, null));
		this.status.post(WatchInput.Failed.of(TestWatches.serverError()));
		this.status.post(new WatchInput.ListStarted(RelistReason.ERROR));
		assertThat(this.status.getState()).isEqualTo(InformerState.STOPPED);
		assertThat(this.transitions).last().asString().isEqualTo("WATCHING->STOPPED (stopped)");
	}

	private void synced() {
		TestWatches.sync(this.status, 2);
		this.transitions.clear();
	}

	private static Instant at(String text) {
		return java.time.Instant.parse(text);
	}

}
