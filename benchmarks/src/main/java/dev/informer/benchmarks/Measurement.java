package dev.informer.benchmarks;

/**
 * One measured value.
 *
 * @param size the workload's object count (0: the empty namespace, for fixed costs)
 * @param subject the subject's id
 * @param repetition the repetition, from 0
 * @param metric the metric, one of the constants
 * @param value the value
 */
record Measurement(int size, String subject, int repetition, String metric, double value) {

	static final String SYNC_MS = "sync_ms";

	static final String SYNC_CPU_MS = "sync_cpu_ms";

	static final String HEAP_BYTES_PER_OBJECT = "heap_bytes_per_object";

	static final String STREAM_EVENTS_PER_S = "stream_events_per_s";

	static final String CPU_US_PER_EVENT = "cpu_us_per_event";

	static final String LATENCY_P50_MS = "latency_p50_ms";

	static final String LATENCY_P99_MS = "latency_p99_ms";

	static final String LATENCY_AFTER_RETURN_P50_MS = "latency_after_return_p50_ms";

	static final String LATENCY_AFTER_RETURN_P99_MS = "latency_after_return_p99_ms";

	static final String PUBLISH_NS_PER_EVENT = "publish_ns_per_event";

}
