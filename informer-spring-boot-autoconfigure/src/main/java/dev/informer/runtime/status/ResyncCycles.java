package dev.informer.runtime.status;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.informer.watch.WatchSnapshot;

/**
 * Tells resync cycles apart in the resync events of one watch: fabric8 replays the whole
 * cache at once each period, so a gap of half a period separates two cycles.
 */
final class ResyncCycles {

	private final Duration period;

	private long cycles;

	private long nanos;

	private @Nullable Instant cycleStartedAt;

	private @Nullable Instant lastAt;

	ResyncCycles(Duration period) {
		this.period = period;
	}

	synchronized void delivered(Instant now) {
		Instant previous = this.lastAt;
		Duration gap = this.period.isZero() ? Duration.ofSeconds(1) : this.period.dividedBy(2);
		if (previous == null || Duration.between(previous, now).compareTo(gap) > 0) {
			this.cycles++;
			this.cycleStartedAt = now;
		}
		else {
			this.nanos += Duration.between(previous, now).toNanos();
		}
		this.lastAt = now;
	}

	/**
	 * Describe the cycles.
	 * @param syncedAt when the watch synced: the first cycle is due a period after it
	 * @return the snapshot
	 */
	synchronized WatchSnapshot.Resync snapshot(@Nullable Instant syncedAt) {
		Instant started = this.cycleStartedAt;
		Instant last = this.lastAt;
		Duration lastDuration = (started != null && last != null) ? Duration.between(started, last) : null;
		Instant base = (started != null) ? started : syncedAt;
		Instant nextDue = (this.period.isZero() || base == null) ? null : base.plus(this.period);
		return new WatchSnapshot.Resync(this.period, this.cycles, Duration.ofNanos(this.nanos), last, lastDuration,
				nextDue);
	}

}
