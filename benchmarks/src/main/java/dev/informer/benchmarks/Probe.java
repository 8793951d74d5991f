package dev.informer.benchmarks;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.api.model.ConfigMap;

/**
 * What every subject's listener does, identically: count adds and updates, and note when an
 * update carrying a latency sequence number arrived. It keeps no reference to the objects, so
 * it does not distort the heap measurement.
 */
final class Probe {

	static final String SEQ = "seq";

	private final AtomicLong adds = new AtomicLong();

	private final AtomicLong updates = new AtomicLong();

	private final ConcurrentHashMap<Long, Long> seenAt = new ConcurrentHashMap<>();

	private final long expectedAdds;

	private volatile long syncedAt;

	private volatile long lastUpdateAt;

	private volatile boolean recordLatency;

	Probe(long expectedAdds) {
		this.expectedAdds = expectedAdds;
	}

	void added(ConfigMap resource) {
		if (this.adds.incrementAndGet() == this.expectedAdds) {
			this.syncedAt = System.nanoTime();
		}
	}

	/**
	 * When the expected number of adds had arrived.
	 * @return {@link System#nanoTime()} then, or 0 before
	 */
	long syncedAt() {
		return this.syncedAt;
	}

	void updated(ConfigMap resource) {
		long now = System.nanoTime();
		this.updates.incrementAndGet();
		this.lastUpdateAt = now;
		if (this.recordLatency) {
			String seq = (resource.getData() != null) ? resource.getData().get(SEQ) : null;
			if (seq != null) {
				this.seenAt.putIfAbsent(Long.parseLong(seq), now);
			}
		}
	}

	long adds() {
		return this.adds.get();
	}

	long updates() {
		return this.updates.get();
	}

	long lastUpdateAt() {
		return this.lastUpdateAt;
	}

	void recordLatency(boolean record) {
		this.recordLatency = record;
	}

	Long seenAt(long seq) {
		return this.seenAt.get(seq);
	}

}
