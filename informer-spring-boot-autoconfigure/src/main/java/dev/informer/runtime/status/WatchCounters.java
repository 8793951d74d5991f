package dev.informer.runtime.status;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import dev.informer.watch.EventType;
import dev.informer.watch.RelistReason;

/**
 * The counters of one watch: lists, relists by reason, events by type, listener failures,
 * reconnects and consecutive errors. Lock-free; they only ever count up, except the
 * consecutive failures, which a successful list resets.
 */
final class WatchCounters {

	private final AtomicLong lists = new AtomicLong();

	private final AtomicLong listNanos = new AtomicLong();

	private final Map<RelistReason, LongAdder> relists = new ConcurrentHashMap<>();

	private final Map<EventType, LongAdder> events = new ConcurrentHashMap<>();

	private final LongAdder listenerFailures = new LongAdder();

	private final AtomicLong reconnects = new AtomicLong();

	private final LongAdder filtered = new LongAdder();

	private final AtomicInteger consecutiveFailures = new AtomicInteger();

	void listCompleted(Duration duration) {
		this.lists.incrementAndGet();
		this.listNanos.addAndGet(duration.toNanos());
		this.consecutiveFailures.set(0);
	}

	void relisted(RelistReason reason) {
		this.relists.computeIfAbsent(reason, (key) -> new LongAdder()).increment();
	}

	void delivered(EventType type, int failedListeners) {
		this.events.computeIfAbsent(type, (key) -> new LongAdder()).increment();
		if (failedListeners > 0) {
			this.listenerFailures.add(failedListeners);
		}
	}

	void filtered() {
		this.filtered.increment();
	}

	long filteredCount() {
		return this.filtered.sum();
	}

	void reconnected() {
		this.reconnects.incrementAndGet();
	}

	void failed() {
		this.consecutiveFailures.incrementAndGet();
	}

	long lists() {
		return this.lists.get();
	}

	Duration listTotalTime() {
		return Duration.ofNanos(this.listNanos.get());
	}

	Map<String, Long> relists() {
		return sums(this.relists);
	}

	Map<String, Long> events() {
		return sums(this.events);
	}

	long listenerFailures() {
		return this.listenerFailures.sum();
	}

	long reconnects() {
		return this.reconnects.get();
	}

	int consecutiveFailures() {
		return this.consecutiveFailures.get();
	}

	// by tag value, sorted: the order and keys the endpoint shows
	private static Map<String, Long> sums(Map<?, LongAdder> adders) {
		Map<String, Long> result = new TreeMap<>();
		adders.forEach((key, adder) -> result.put(key.toString(), adder.sum()));
		return result;
	}

}
