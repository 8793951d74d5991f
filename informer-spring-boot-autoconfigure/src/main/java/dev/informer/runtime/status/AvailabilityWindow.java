package dev.informer.runtime.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.informer.watch.WatchSnapshot;

/**
 * The availability window of one watch, immutable: the last samples of whether it was
 * open (oldest overwritten first), and when it was lost or relisted by fabric8 within as
 * many entries. What {@link WatchSnapshot.Availability#isFlapping} judges. Each change
 * returns a new window; a window of the default size is 60 booleans.
 */
final class AvailabilityWindow {

	/**
	 * The samples of a window when none are configured: a minute at the default sampling
	 * period.
	 */
	static final int DEFAULT_SAMPLES = 60;

	private final boolean[] samples;

	private final int count;

	private final int next;

	private final List<Instant> reconnects;

	private final List<Instant> relists;

	AvailabilityWindow(int samples) {
		this(new boolean[Math.max(1, samples)], 0, 0, List.of(), List.of());
	}

	private AvailabilityWindow(boolean[] samples, int count, int next, List<Instant> reconnects,
			List<Instant> relists) {
		this.samples = samples;
		this.count = count;
		this.next = next;
		this.reconnects = reconnects;
		this.relists = relists;
	}

	AvailabilityWindow sample(boolean open) {
		boolean[] samples = this.samples.clone();
		samples[this.next] = open;
		return new AvailabilityWindow(samples, Math.min(this.count + 1, samples.length),
				(this.next + 1) % samples.length, this.reconnects, this.relists);
	}

	AvailabilityWindow lost(Instant at) {
		return new AvailabilityWindow(this.samples, this.count, this.next, add(this.reconnects, at), this.relists);
	}

	AvailabilityWindow relistedByFabric8(Instant at) {
		return new AvailabilityWindow(this.samples, this.count, this.next, this.reconnects, add(this.relists, at));
	}

	private List<Instant> add(List<Instant> times, Instant at) {
		List<Instant> added = new ArrayList<>(times.size() + 1);
		added.addAll(times.subList(Math.max(0, times.size() + 1 - this.samples.length), times.size()));
		added.add(at);
		return List.copyOf(added);
	}

	/**
	 * Forget everything: a replaced watch starts a new window.
	 * @return an empty window of the same size
	 */
	AvailabilityWindow reset() {
		return new AvailabilityWindow(this.samples.length);
	}

	WatchSnapshot.Availability snapshot() {
		return new WatchSnapshot.Availability(share(), this.reconnects, this.relists);
	}

	private double share() {
		if (this.count < this.samples.length) {
			return -1;
		}
		int open = 0;
		for (boolean sample : this.samples) {
			if (sample) {
				open++;
			}
		}
		return (double) open / this.samples.length;
	}

}
