package dev.informer.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * What every subject's listener does, identically: count adds and updates, and note when
 * an update carrying a latency sequence number arrived. It keeps no reference to the
 * objects, so it does not distort the heap measurement.
 */
final class Probe {

	static final String SEQ = "seq";

	private final AtomicLong adds = new AtomicLong();

	private final AtomicLong updates = new AtomicLong();

	private final ConcurrentHashMap<Long, Long> seenAt = new ConcurrentHashMap<>();

	private final long expectedAdds;

	private volatile long syncedAt;

	private volatile long startedCpu;

	private volatile long syncedCpu;

	private volatile long lastUpdateAt;

	private volatile boolean recordLatency;

	Probe(long expectedAdds) {
		this.expectedAdds = expectedAdds;
	}

	/**
	 * Called by the subject just before its informer starts.
	 */
	void informerStarting() {
		this.startedCpu = processCpuTime();
	}

	void added(HasMetadata resource) {
		if (this.adds.incrementAndGet() == this.expectedAdds) {
			// before syncedAt: whoever sees syncedAt set must see this too
			this.syncedCpu = processCpuTime();
			this.syncedAt = System.nanoTime();
		}
	}

	/**
	 * The CPU time this JVM spent (on all its threads: HTTP, decoding, GC, delivery)
	 * between the informer's start and the expected number of adds. The API server runs
	 * in other processes and is not counted.
	 * @return the CPU time in nanoseconds, or 0 before the sync
	 */
	long syncCpuNanos() {
		return (this.syncedAt != 0) ? this.syncedCpu - this.startedCpu : 0;
	}

	/**
	 * Whether both CPU readings succeeded ({@code getProcessCpuTime()} answers -1 on a
	 * platform that does not measure it).
	 * @return whether {@link #syncCpuNanos()} is a measurement
	 */
	boolean hasSyncCpu() {
		return this.syncedAt != 0 && this.startedCpu >= 0 && this.syncedCpu >= 0;
	}

	/**
	 * The CPU time of this JVM so far.
	 * @return nanoseconds, or -1 where the platform does not measure it
	 */
	static long processCpuTime() {
		com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
			.getOperatingSystemMXBean();
		return os.getProcessCpuTime();
	}

	/**
	 * When the expected number of adds had arrived.
	 * @return {@link System#nanoTime()} then, or 0 before
	 */
	long syncedAt() {
		return this.syncedAt;
	}

	void updated(HasMetadata resource) {
		long now = System.nanoTime();
		this.updates.incrementAndGet();
		this.lastUpdateAt = now;
		if (this.recordLatency) {
			String seq = seq(resource);
			if (seq != null) {
				this.seenAt.putIfAbsent(Long.parseLong(seq), now);
			}
		}
	}

	/**
	 * The sequence number of a latency update: in the data of a ConfigMap, and in the
	 * annotations, for subjects that only see metadata.
	 */
	private static String seq(HasMetadata resource) {
		if (resource instanceof ConfigMap configMap) {
			return (configMap.getData() != null) ? configMap.getData().get(SEQ) : null;
		}
		return (resource.getMetadata().getAnnotations() != null) ? resource.getMetadata().getAnnotations().get(SEQ)
				: null;
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
