package dev.informer.runtime;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link VersionHistory}: where a watch of a gained shard range catches up from.
 */
class VersionHistoryTests {

	private static final Instant T0 = Instant.parse("2026-12-05T10:00:00Z");

	private final VersionHistory history = new VersionHistory();

	@Test
	void nothingRecordedIsNoStart() {
		assertThat(this.history.at(T0)).isNull();
	}

	@Test
	void theLatestVersionReachedAtOrBeforeATime() {
		this.history.reached("100", T0);
		this.history.reached("150", T0.plusSeconds(10));
		this.history.reached("200", T0.plusSeconds(20));
		assertThat(this.history.at(T0.plusSeconds(15))).isEqualTo("150");
		assertThat(this.history.at(T0.plusSeconds(10))).isEqualTo("150");
		assertThat(this.history.at(T0.plusSeconds(60))).isEqualTo("200");
	}

	@Test
	void aTimeBeforeTheFirstSampleIsAnsweredWithTheEarliest() {
		this.history.reached("100", T0);
		this.history.reached("150", T0.plusSeconds(10));
		assertThat(this.history.at(T0.minusSeconds(30))).isEqualTo("100");
	}

	@Test
	void versionsThatAreNotLaterOrNotComparableAreIgnored() {
		this.history.reached("100", T0);
		this.history.reached("90", T0.plusSeconds(5));
		this.history.reached("100", T0.plusSeconds(6));
		this.history.reached("opaque-7", T0.plusSeconds(7));
		this.history.reached(null, T0.plusSeconds(8));
		assertThat(this.history.at(T0.plusSeconds(9))).isEqualTo("100");
	}

	@Test
	void oldSamplesGoButTheNewestOlderThanTheRetentionAnswersForEverythingSince() {
		this.history.reached("100", T0);
		this.history.reached("110", T0.plusSeconds(1));
		Instant later = T0.plus(VersionHistory.kept()).plus(Duration.ofMinutes(1));
		this.history.reached("500", later);
		// 100 went: 110 is the newest sample older than the retention
		assertThat(this.history.at(T0)).isEqualTo("110");
		assertThat(this.history.at(later.minusSeconds(1))).isEqualTo("110");
		assertThat(this.history.at(later)).isEqualTo("500");
	}

}
