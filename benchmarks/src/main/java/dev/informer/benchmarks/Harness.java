package dev.informer.benchmarks;

import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.ConfigMapListBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Runs every subject on the same workload, alternating their order from one repetition to
 * the next so that drift (JIT, heap growth, a neighbour's load) spreads over all of them;
 * repetition -1 is a discarded warm-up.
 */
final class Harness {

	static final String DECODE = "d";

	private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private final Options options;

	private final ApiServer server;

	private final List<Subject> subjects;

	private final List<Measurement> measurements = new ArrayList<>();

	Harness(Options options, ApiServer server, List<Subject> subjects) {
		this.options = options;
		this.server = server;
		this.subjects = subjects;
	}

	List<Measurement> run() throws Exception {
		Workload workload = new Workload(this.server, this.options.writers());
		try {
			for (int size : this.options.sizes()) {
				long started = System.nanoTime();
				workload.populate(size);
				log("populated %s with %d ConfigMaps in %.1f s", Workload.namespace(size), size,
						(System.nanoTime() - started) / 1e9);
				runSize(workload, size);
			}
		}
		finally {
			workload.close();
		}
		return this.measurements;
	}

	private void runSize(Workload workload, int size) throws Exception {
		boolean stream = size == this.options.streamSize();
		DecodeInput decode = DecodeInput.of(workload, size);
		List<String> ids = new ArrayList<>(this.subjects.stream().map(Subject::id).toList());
		ids.add(DECODE);
		for (int rep = -this.options.warmups(); rep < this.options.repetitions(); rep++) {
			List<String> order = new ArrayList<>(ids);
			Collections.rotate(order, Math.floorMod(rep, order.size()));
			if (Math.floorMod(rep, 2) == 1) {
				Collections.reverse(order);
			}
			for (String id : order) {
				if (DECODE.equals(id)) {
					measureDecode(decode, size, rep, stream);
					continue;
				}
				Subject subject = this.subjects.stream().filter((s) -> s.id().equals(id)).findFirst().orElseThrow();
				measure(subject, workload, size, rep, stream);
			}
			log("size %d repetition %d done (%s)", size, rep, String.join(",", order));
		}
	}

	/**
	 * Measure one subject's sync, and its stream and latency on the stream's workload.
	 * CPU per event and heap per object are not measured here: in a JVM shared with the
	 * writer and the other subjects they can only be had by subtracting, which can come
	 * out negative. The per-process benchmark measures them
	 * ({@link PerProcessBenchmark}).
	 */
	private void measure(Subject subject, Workload workload, int size, int rep, boolean stream) throws Exception {
		Probe probe = new Probe(size);
		// the previous subject's garbage is not collected during this one's sync
		collectGarbage();
		Subject.Running running = subject.start(this.server, Workload.namespace(size), probe);
		try {
			await(() -> probe.syncedAt() != 0, this.options.syncTimeout(), subject.id() + " sync of " + size);
			record(size, subject.id(), rep, Measurement.SYNC_MS,
					(probe.syncedAt() - running.informerStartedAt()) / 1e6);
			if (probe.hasSyncCpu()) {
				record(size, subject.id(), rep, Measurement.SYNC_CPU_MS, probe.syncCpuNanos() / 1e6);
			}
			else {
				log("  %s: the OS gave no process CPU time; sync CPU not recorded", subject.id());
			}
			if (!stream) {
				return;
			}
			int count = this.options.streamEvents();
			long started = System.nanoTime();
			workload.stream(size, count);
			await(() -> probe.updates() >= count, Duration.ofMinutes(2), subject.id() + " stream");
			long ended = probe.lastUpdateAt();
			record(size, subject.id(), rep, Measurement.STREAM_EVENTS_PER_S, count / ((ended - started) / 1e9));
			measureLatency(subject, workload, probe, size, rep);
		}
		finally {
			running.close();
		}
	}

	private void measureLatency(Subject subject, Workload workload, Probe probe, int size, int rep) throws Exception {
		probe.recordLatency(true);
		Map<Long, long[]> written = workload.paced(size, this.options.latencyEvents(), this.options.latencyRate());
		await(() -> written.keySet().stream().allMatch((seq) -> probe.seenAt(seq) != null), Duration.ofMinutes(1),
				subject.id() + " latency");
		// from the write being issued: on loopback the watch event often reaches
		// the listener before the client has processed the write's response
		double[] fromIssue = written.entrySet()
			.stream()
			.mapToDouble((e) -> (probe.seenAt(e.getKey()) - e.getValue()[0]) / 1e6)
			.sorted()
			.toArray();
		double[] afterReturn = written.entrySet()
			.stream()
			.mapToDouble((e) -> Math.max(0, probe.seenAt(e.getKey()) - e.getValue()[1]) / 1e6)
			.sorted()
			.toArray();
		record(size, subject.id(), rep, Measurement.LATENCY_P50_MS, percentile(fromIssue, 0.50));
		record(size, subject.id(), rep, Measurement.LATENCY_P99_MS, percentile(fromIssue, 0.99));
		record(size, subject.id(), rep, Measurement.LATENCY_AFTER_RETURN_P50_MS, percentile(afterReturn, 0.50));
		record(size, subject.id(), rep, Measurement.LATENCY_AFTER_RETURN_P99_MS, percentile(afterReturn, 0.99));
	}

	private void measureDecode(DecodeInput input, int size, int rep, boolean stream) {
		KubernetesSerialization serialization = input.serialization;
		collectGarbage();
		long started = System.nanoTime();
		ConfigMapList list = serialization.unmarshal(new ByteArrayInputStream(input.list), ConfigMapList.class);
		long ended = System.nanoTime();
		record(size, DECODE, rep, Measurement.SYNC_MS, (ended - started) / 1e6);
		if (list.getItems().size() != size) {
			throw new IllegalStateException("decoded " + list.getItems().size() + " of " + size);
		}
		if (!stream) {
			return;
		}
		int count = Math.max(this.options.streamEvents(), 20_000);
		long cpuBefore = threads.getCurrentThreadCpuTime();
		started = System.nanoTime();
		Object sink = null;
		for (int i = 0; i < count; i++) {
			WatchEvent event = serialization.unmarshal(new ByteArrayInputStream(input.watchEvent), WatchEvent.class);
			sink = event.getObject();
		}
		ended = System.nanoTime();
		long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
		if (!(sink instanceof ConfigMap)) {
			throw new IllegalStateException("watch event decoded to " + sink);
		}
		record(size, DECODE, rep, Measurement.STREAM_EVENTS_PER_S, count / ((ended - started) / 1e9));
		record(size, DECODE, rep, Measurement.CPU_US_PER_EVENT, cpu / 1e3 / count);
	}

	private void record(int size, String subject, int rep, String metric, double value) {
		if (rep >= 0) {
			this.measurements.add(new Measurement(size, subject, rep, metric, value));
		}
	}

	static double percentile(double[] sorted, double p) {
		if (sorted.length == 0) {
			return Double.NaN;
		}
		int index = (int) Math.ceil(p * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
	}

	/**
	 * Full collections before each subject: the same start for every subject.
	 */
	private void collectGarbage() {
		for (int i = 0; i < this.options.gcRounds(); i++) {
			System.gc();
			LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
		}
	}

	private static void await(BooleanSupplier condition, Duration timeout, String what) throws TimeoutException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new TimeoutException(what + " did not finish within " + timeout);
			}
			LockSupport.parkNanos(200_000);
		}
	}

	static void log(String format, Object... args) {
		System.out.printf("[bench] " + format + "%n", args);
	}

	/**
	 * The bytes the decode floor parses: the list the informers receive, and one watch
	 * event.
	 */
	private record DecodeInput(KubernetesSerialization serialization, byte[] list, byte[] watchEvent) {

		static DecodeInput of(Workload workload, int size) {
			KubernetesSerialization serialization = new KubernetesSerialization();
			List<ConfigMap> items = workload.list(size);
			byte[] list = serialization.asJson(new ConfigMapListBuilder().withItems(items).build())
				.getBytes(StandardCharsets.UTF_8);
			byte[] event = serialization.asJson(new WatchEvent(items.get(0), "MODIFIED"))
				.getBytes(StandardCharsets.UTF_8);
			return new DecodeInput(serialization, list, event);
		}

		@Override
		public boolean equals(Object other) {
			return this == other;
		}

		@Override
		public int hashCode() {
			return System.identityHashCode(this);
		}

		@Override
		public String toString() {
			return "DecodeInput[" + this.list.length + " bytes]";
		}

	}

}
