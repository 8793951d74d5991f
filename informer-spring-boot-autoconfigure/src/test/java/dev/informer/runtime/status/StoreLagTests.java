package dev.informer.runtime.status;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.informer.watch.WatchSnapshot;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StoreLag}: a cache is stale for as long as it has not reached the
 * oldest server resourceVersion read that it had not reached.
 */
class StoreLagTests {

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	private final StoreLag lag = new StoreLag();

	@Test
	void aCacheThatReachesWhatWasReadIsNotStale() {
		this.lag.read("100", T0, "90");
		WatchSnapshot.Lag behind = this.lag.snapshot(T0.plusSeconds(20), "90");
		assertThat(behind.behind()).isEqualTo(10L);
		assertThat(behind.staleFor()).isEqualTo(Duration.ofSeconds(20));
		// a bookmark moves the cache past it
		WatchSnapshot.Lag caughtUp = this.lag.snapshot(T0.plusSeconds(30), "105");
		assertThat(caughtUp.behind()).isZero();
		assertThat(caughtUp.staleFor()).isEqualTo(Duration.ZERO);
		assertThat(caughtUp.serverResourceVersion()).isEqualTo("100");
		assertThat(caughtUp.checks()).isOne();
	}

	@Test
	void aCacheThatNeverReachesItStaysStaleFromTheOldestReadItMissed() {
		this.lag.read("100", T0, "90");
		this.lag.read("120", T0.plusSeconds(60), "90");
		this.lag.read("130", T0.plusSeconds(120), "90");
		WatchSnapshot.Lag stale = this.lag.snapshot(T0.plusSeconds(150), "90");
		assertThat(stale.staleFor()).isEqualTo(Duration.ofSeconds(150));
		assertThat(stale.behind()).isEqualTo(40L);
		assertThat(stale.checks()).isEqualTo(3);
		// reaching the oldest is not enough: it is stale since the oldest read it
		// has still not reached
		this.lag.read("140", T0.plusSeconds(180), "101");
		assertThat(this.lag.snapshot(T0.plusSeconds(190), "101").staleFor()).isEqualTo(Duration.ofSeconds(130));
		assertThat(this.lag.snapshot(T0.plusSeconds(200), "140").staleFor()).isEqualTo(Duration.ZERO);
	}

	@Test
	void opaqueVersionsAreNotJudged() {
		this.lag.read("abc", T0, "xyz");
		WatchSnapshot.Lag lag = this.lag.snapshot(T0.plusSeconds(600), "xyz");
		assertThat(lag.staleFor()).isNull();
		assertThat(lag.behind()).isNull();
		assertThat(lag.serverResourceVersion()).isEqualTo("abc");
	}

	@Test
	void failuresAreCountedAndTheLastOneKeptUntilAReadSucceeds() {
		this.lag.failed("timeout");
		assertThat(this.lag.snapshot(T0, "1").lastFailure()).isEqualTo("timeout");
		assertThat(this.lag.snapshot(T0, "1").staleFor()).isNull();
		this.lag.read("5", T0, "5");
		WatchSnapshot.Lag lag = this.lag.snapshot(T0, "5");
		assertThat(lag.lastFailure()).isNull();
		assertThat(lag.checkFailures()).isOne();
		assertThat(lag.staleFor()).isEqualTo(Duration.ZERO);
	}

}
