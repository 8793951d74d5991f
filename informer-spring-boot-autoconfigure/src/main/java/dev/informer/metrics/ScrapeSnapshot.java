package dev.informer.metrics;

import java.time.Duration;
import java.util.BitSet;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import io.micrometer.core.instrument.Clock;
import org.jspecify.annotations.Nullable;

import dev.informer.watch.Watch;
import dev.informer.watch.WatchSnapshot;

/**
 * The snapshot that the meters of one watch share while a registry reads them. A registry
 * reads each meter once per scrape (or per step of a step registry), so the meters reuse
 * the snapshot the first of them took until one of them is read again, which starts the
 * next scrape, or until it is older than {@link #MAX_AGE} by the registry's clock.
 * Without it, each meter would take a whole snapshot of the watch for itself.
 */
final class ScrapeSnapshot {

	/**
	 * How long a snapshot serves meters that have not read it yet. A full scrape renews
	 * it the moment it reads a meter again and never waits for this age; the age only
	 * bounds what a reader of a few meters sees (the actuator {@code metrics} endpoint
	 * reads one name at a time), so that it never shows a value older than this. It is
	 * longer than a scrape of all meters of hundreds of watches takes, so a scrape takes
	 * one snapshot per watch (a slower one takes another, and its values are only
	 * fresher), and short enough that nobody reading a single meter notices the reuse.
	 */
	static final Duration MAX_AGE = Duration.ofSeconds(1);

	private static final long MAX_AGE_NANOS = MAX_AGE.toNanos();

	private final Clock clock;

	// guarded by this: the meters that have read the current snapshot
	private final BitSet read = new BitSet();

	private int meters;

	private @Nullable Watch watch;

	private @Nullable WatchSnapshot snapshot;

	private long takenAt;

	/**
	 * Create the shared snapshot of one watch's meters in one registry.
	 * @param clock the registry's clock
	 */
	ScrapeSnapshot(Clock clock) {
		this.clock = clock;
	}

	/**
	 * Return the function of one more meter: a gauge's value or a counter's count.
	 * @param value the value, read from the shared snapshot
	 * @return the meter's function
	 */
	ToDoubleFunction<Watch> value(ToDoubleFunction<WatchSnapshot> value) {
		int meter = nextMeter();
		return (watch) -> value.applyAsDouble(read(watch, meter));
	}

	/**
	 * Return the count function of one more function timer.
	 * @param count the count, read from the shared snapshot
	 * @return the meter's function
	 */
	ToLongFunction<Watch> count(ToLongFunction<WatchSnapshot> count) {
		int meter = nextMeter();
		return (watch) -> count.applyAsLong(read(watch, meter));
	}

	private synchronized int nextMeter() {
		return this.meters++;
	}

	private synchronized WatchSnapshot read(Watch watch, int meter) {
		long now = this.clock.monotonicTime();
		WatchSnapshot snapshot = this.snapshot;
		if (snapshot == null || watch != this.watch || this.read.get(meter) || now - this.takenAt > MAX_AGE_NANOS) {
			snapshot = watch.snapshot();
			this.snapshot = snapshot;
			this.watch = watch;
			this.takenAt = now;
			this.read.clear();
		}
		this.read.set(meter);
		return snapshot;
	}

}
