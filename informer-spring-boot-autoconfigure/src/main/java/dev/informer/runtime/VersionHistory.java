package dev.informer.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;

import org.jspecify.annotations.Nullable;

import dev.informer.watch.ResourceVersions;

/**
 * The resourceVersions one watch had reached, each with when it was seen: where a watch
 * of a shard range this replica gains starts to catch up on the deletes nobody delivered.
 * A resourceVersion is a point in the API server's history, whatever the watch filtered,
 * so the one a watch of another range had reached at some time is a start for a watch of
 * this range that misses nothing after that time. Only comparable resourceVersions are
 * kept (KEP-5504), for {@link #kept() five minutes}.
 */
final class VersionHistory {

	private static final Duration KEPT = Duration.ofMinutes(5);

	private static final int MAX_SAMPLES = 512;

	private final Deque<Sample> samples = new ArrayDeque<>();

	/**
	 * Record a resourceVersion reached at a time: the watch's own, or the API server's
	 * current one read then.
	 * @param resourceVersion the resourceVersion, ignored unless comparable and later
	 * than the last recorded
	 * @param at when it was reached
	 */
	synchronized void reached(@Nullable String resourceVersion, Instant at) {
		if (resourceVersion == null || !ResourceVersions.isComparable(resourceVersion)) {
			return;
		}
		Sample last = this.samples.peekLast();
		if (last != null && ResourceVersions.isAtLeast(last.resourceVersion(), resourceVersion)) {
			return;
		}
		this.samples.addLast(new Sample(resourceVersion, at));
		// keep the newest sample older than the retention: it answers for any time since
		Instant oldest = at.minus(KEPT);
		while (this.samples.size() > MAX_SAMPLES || secondIsOlderThan(oldest)) {
			this.samples.removeFirst();
		}
	}

	private boolean secondIsOlderThan(Instant oldest) {
		Iterator<Sample> iterator = this.samples.iterator();
		if (!iterator.hasNext()) {
			return false;
		}
		iterator.next();
		return iterator.hasNext() && iterator.next().at().isBefore(oldest);
	}

	/**
	 * Return the latest resourceVersion reached at or before {@code time}, or the
	 * earliest recorded when none is that old (the watch started later: it cannot see
	 * further back).
	 * @param time the time
	 * @return the resourceVersion, {@code null} when none is recorded
	 */
	synchronized @Nullable String at(Instant time) {
		String found = null;
		for (Sample sample : this.samples) {
			if (found != null && sample.at().isAfter(time)) {
				break;
			}
			found = sample.resourceVersion();
		}
		return found;
	}

	/**
	 * How long samples are kept.
	 * @return the retention
	 */
	static Duration kept() {
		return KEPT;
	}

	private record Sample(String resourceVersion, Instant at) {
	}

}
