package dev.informer.runtime.status;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;

import dev.informer.watch.WatchSnapshot;

/**
 * The availability window of one watch: the last samples of whether it was open (oldest
 * overwritten first), and when it was lost or relisted by fabric8 within as many entries.
 * What {@link WatchSnapshot.Availability#isFlapping} judges.
 */
final class AvailabilityWindow {

	/**
	 * The samples of a window when none are configured: a minute at the default sampling
	 * period.
	 */
	static final int DEFAULT_SAMPLES = 60;

	private final boolean[] samples;

	private int count;

	private int next;

	private final ArrayDeque<Instant> reconnects = new ArrayDeque<>();

	private final ArrayDeque<Instant> relists = new ArrayDeque<>();

	AvailabilityWindow(int samples) {
		this.samples = new boolean[Math.max(1, samples)];
	}

	synchronized void sample(boolean open) {
		this.samples[this.next] = open;
		this.next = (this.next + 1) % this.samples.length;
		this.count = Math.min(this.count + 1, this.samples.length);
	}

	synchronized void lost(Instant at) {
		add(this.reconnects, at);
	}

	synchronized void relistedByFabric8(Instant at) {
		add(this.relists, at);
	}

	private void add(ArrayDeque<Instant> times, Instant at) {
		times.addLast(at);
		if (times.size() > this.samples.length) {
			times.removeFirst();
		}
	}

	/**
	 * Forget everything: a replaced watch starts a new window.
	 */
	synchronized void reset() {
		this.count = 0;
		this.next = 0;
		this.reconnects.clear();
		this.relists.clear();
	}

	synchronized WatchSnapshot.Availability snapshot() {
		return new WatchSnapshot.Availability(share(), List.copyOf(this.reconnects), List.copyOf(this.relists));
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
