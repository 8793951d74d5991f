package dev.informer.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import dev.informer.benchmarks.ProcessSubjects.Encoding;
import dev.informer.benchmarks.ProcessSubjects.Heap;
import dev.informer.benchmarks.SubjectProcess.Answer;

/**
 * Every subject in a process of its own, measured from outside (docs/benchmarks.md, "Per
 * process"; {@code --per-process}). <b>Sync:</b> for each size and repetition, each
 * subject in turn (order rotated every repetition) is launched fresh, told to start its
 * informer once its client is ready (cold), then to start a second one in the same
 * process (warm); its time is the subject's own from informer start to every object
 * delivered to its handler, its CPU the process's utime + stime from {@code /proc}
 * between the command and the answer; heap per object from the subject itself after the
 * cold sync ({@link HeapHistogram} of the JVMs, the Go runtime's live heap, the Python
 * cache's object graph). <b>Stream:</b> every stream subject is launched and synced at
 * once, a writer in a process of its own writes warm-up merge patches, then the measured
 * ones at a fixed rate while every subject watches; each subject counts the distinct
 * updates of the measured range it received, and its CPU per event is its own CPU time
 * over the window divided by the events. Nothing is subtracted.
 */
final class PerProcessBenchmark {

	static final String COLD_MS = "cold_sync_ms";

	static final String COLD_CPU = "cold_sync_cpu_ms";

	static final String WARM_MS = "warm_sync_ms";

	static final String WARM_CPU = "warm_sync_cpu_ms";

	static final String HEAP = Measurement.HEAP_BYTES_PER_OBJECT;

	static final String LIST_BYTES = "list_bytes";

	static final String STREAM_CPU = "stream_cpu_us_per_event";

	static final String STREAM_WAKEUPS = "stream_wakeups_per_event";

	static final String STREAM_RECEIVED = "stream_received";

	static final String STREAM_THREADS = "stream_threads";

	static final String WRITER_RATE = "writer_rate";

	static final String WRITER_CPU = "writer_cpu_us_per_patch";

	static final String SERVER_CPU = "apiserver_cpu_us_per_event";

	/**
	 * The prefix of the CPU time by group of threads: {@code thread_cpu:cold:NAME} and
	 * {@code thread_cpu:warm:NAME} in ms, {@code thread_cpu:stream:NAME} in µs per event.
	 */
	static final String THREAD_CPU = "thread_cpu:";

	/** The subject the writer's and the API server's rows are reported under. */
	static final String CONTEXT = "stream";

	static final List<String> SUBJECTS = List.of("floor-get", "floor-decode", "a", "b", "s", "g", "g-json");

	/** The four informers at once, client-go also as JSON, and the two floors. */
	static final List<String> STREAM_SUBJECTS = List.of("floor-get", "floor-decode", "a", "b", "s", "g", "g-json");

	private static final Duration READY = Duration.ofMinutes(5);

	/** After a subject is ready, before its CPU time is read: start-up work settles. */
	private static final Duration SETTLE = Duration.ofMillis(500);

	private final Options options;

	private final ApiServer server;

	private final ProcessSubjects subjects;

	private final Path logs;

	private final Path windows;

	private final List<Measurement> measurements = new ArrayList<>();

	private final List<String> notes = new ArrayList<>();

	private PerProcessBenchmark(Options options, ApiServer server, ProcessSubjects subjects, Path logs, Path windows) {
		this.options = options;
		this.server = server;
		this.subjects = subjects;
		this.logs = logs;
		this.windows = windows;
	}

	/**
	 * Run the benchmark and write {@code per-process.md}, {@code .json} and {@code .csv}
	 * to the output directory, and the README's summary table to
	 * {@code per-process-summary.md}.
	 * @param options the run's options
	 * @return the markdown
	 * @throws Exception on failure
	 */
	static String run(Options options) throws Exception {
		Path output = options.output().toAbsolutePath();
		Path directory = output.resolve("per-process");
		Files.createDirectories(directory);
		Map<String, String> context = new LinkedHashMap<>();
		context.put("load average at start", loadAverage());
		try (ApiServer server = ApiServer.start(options.mock())) {
			Harness.log("API server: %s", server.label());
			Path kubeConfig = directory.resolve("kubeconfig.yaml");
			Files.writeString(kubeConfig, server.kubeConfigForProcesses());
			SeedPython seed = SeedPython.install(output.resolve("seed-venv"));
			Harness.log("seed (s): %s", seed.status());
			GoSubject go = GoSubject.build(options.perProcess().go(), output.resolve("go"));
			Harness.log("client-go (g): %s", go.status());
			Path recordings = directory.resolve("profile");
			ProcessSubjects subjects = new ProcessSubjects(kubeConfig, System.getProperty("java.class.path"), seed, go,
					options.perProcess().profile(), recordings);
			PerProcessBenchmark benchmark = new PerProcessBenchmark(options, server, subjects,
					directory.resolve("logs"), recordings.resolve("windows.tsv"));
			context.put("server", server.label());
			context.put("machine", Runtime.getRuntime().availableProcessors() + " CPUs, "
					+ System.getProperty("os.name") + " " + System.getProperty("os.arch"));
			context.put("jvm subjects", System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
					+ ", default heap and GC, one JVM per subject");
			context.put("seed", seed.status());
			context.put("client-go", go.status());
			benchmark.run();
			context.put("load average at end", loadAverage());
			context.put("workload", benchmark.workload());
			Summary summary = new Summary(benchmark.measurements, PerProcessReport.ratios());
			PerProcessReport report = new PerProcessReport(context, summary, benchmark.notes, options);
			String markdown = report.markdown();
			Files.writeString(output.resolve("per-process.md"), markdown);
			Files.writeString(output.resolve("per-process-summary.md"), report.readmeSummary());
			new Report(context, ProcessSubjects.legend(), summary, List.of()).writeData(output, "per-process");
			if (!options.perProcess().profile().isEmpty()) {
				Path profile = output.resolve("per-process-profile.md");
				Files.writeString(profile, JfrProfile.summarize(recordings.resolve("windows.tsv")));
				Harness.log("profile: %s", profile);
			}
			return markdown;
		}
	}

	private String workload() {
		Options.PerProcess settings = this.options.perProcess();
		return String.format(Locale.ROOT,
				"sync: sizes %s ConfigMaps of ~1 KiB (server-side applied), %d discarded + %d measured "
						+ "repetitions, a fresh process per subject and repetition; stream: %d subjects at once on "
						+ "%d objects, %d warm-up + %d measured JSON merge patches at %d/s from a writer process, "
						+ "%d repetitions",
				this.options.sizes(), this.options.warmups(), this.options.repetitions(), streamSubjects().size(),
				this.options.streamSize(), settings.streamWarmup(), this.options.streamEvents(), settings.streamRate(),
				this.options.repetitions());
	}

	private void run() throws Exception {
		Workload workload = new Workload(this.server, 4);
		try {
			for (int size : this.options.sizes()) {
				long started = System.nanoTime();
				workload.populate(size);
				Harness.log("populated %s with %d ConfigMaps in %.1f s", Workload.namespace(size), size,
						(System.nanoTime() - started) / 1e9);
			}
		}
		finally {
			workload.close();
		}
		List<String> syncSubjects = available(this.options.subjects().isEmpty() ? SUBJECTS : this.options.subjects());
		for (int size : this.options.perProcess().streamOnly() ? List.<Integer>of() : this.options.sizes()) {
			for (int rep = -this.options.warmups(); rep < this.options.repetitions(); rep++) {
				List<String> order = new ArrayList<>(syncSubjects);
				Collections.rotate(order, Math.floorMod(rep, Math.max(1, order.size())));
				for (String id : order) {
					sync(id, size, rep);
				}
			}
		}
		List<String> streamSubjects = streamSubjects();
		if (!streamSubjects.isEmpty() && this.options.streamEvents() > 0) {
			for (int rep = 0; rep < this.options.repetitions(); rep++) {
				stream(streamSubjects, this.options.streamSize(), rep);
			}
		}
	}

	private List<String> streamSubjects() {
		List<String> requested = this.options.perProcess().streamSubjects().isEmpty() ? STREAM_SUBJECTS
				: this.options.perProcess().streamSubjects();
		if (!this.options.subjects().isEmpty() && this.options.perProcess().streamSubjects().isEmpty()) {
			requested = requested.stream().filter(this.options.subjects()::contains).toList();
		}
		List<String> available = available(requested);
		if (!this.server.isReal()) {
			note("stream on the mock server: only (a) and (b), whose fabric8 watches use WebSocket; the mock "
					+ "answers a plain HTTP watch (the floors, client-go, Python) with 400");
			return available.stream().filter((id) -> id.equals("a") || id.equals("b")).toList();
		}
		return available;
	}

	private List<String> available(List<String> requested) {
		List<String> available = new ArrayList<>();
		for (String id : requested) {
			String skipped = this.subjects.skipped(id);
			if (skipped == null && id.startsWith("g") && !this.server.isReal()) {
				skipped = "SKIPPED on the mock server: client-go rejects its lists (kind List, no protobuf)";
			}
			if (skipped == null) {
				available.add(id);
			}
			else {
				String note = "(" + id + ") " + skipped;
				if (!this.notes.contains(note)) {
					this.notes.add(note);
					Harness.log("%s", note);
				}
			}
		}
		return available;
	}

	/** One launch: cold sync, heap, warm sync. */
	private void sync(String id, int size, int rep) throws Exception {
		String namespace = Workload.namespace(size);
		String tag = "sync-" + size + "-r" + rep;
		Heap heap = this.subjects.heap(id);
		try (SubjectProcess process = this.subjects.launch(id, namespace, size, tag, this.logs, Encoding.DEFAULT)) {
			process.await("READY", READY);
			HeapHistogram before = (heap == Heap.HISTOGRAM) ? HeapHistogram.of(this.subjects.javaHome(), process.pid())
					: null;
			Answer cold = timedSync(process, size);
			record(size, id, rep, COLD_MS, cold.number("ms"));
			record(size, id, rep, COLD_CPU, cpuMs(cold));
			threads(size, id, rep, "cold", cold, 1e6);
			if (id.equals("floor-get")) {
				record(size, id, rep, LIST_BYTES, cold.number("bytes"));
			}
			window(id, tag, "cold", size, rep, cold);
			if (heap == Heap.HISTOGRAM) {
				Map<String, Long> growth = HeapHistogram.of(this.subjects.javaHome(), process.pid())
					.growthSince(before);
				growth.forEach((group, bytes) -> record(size, id, rep,
						group.equals("total") ? HEAP : "heap_" + group + "_bytes_per_object", (double) bytes / size));
			}
			else if (heap == Heap.SELF) {
				Answer self = process.ask("heap", "HEAP", Duration.ofMinutes(10));
				record(size, id, rep, HEAP, self.number("bytes") / size);
			}
			process.ask("prepare", "READY", READY);
			Answer warm = timedSync(process, size);
			record(size, id, rep, WARM_MS, warm.number("ms"));
			record(size, id, rep, WARM_CPU, cpuMs(warm));
			threads(size, id, rep, "warm", warm, 1e6);
			window(id, tag, "warm", size, rep, warm);
			Harness.log("sync %d r%d (%s): cold %.0f ms, %.0f ms CPU; warm %.0f ms, %.0f ms CPU", size, rep, id,
					cold.number("ms"), cpuMs(cold), warm.number("ms"), cpuMs(warm));
		}
	}

	/** Start the informer once the process has settled; its answer with the CPU delta. */
	private Answer timedSync(SubjectProcess process, int size) throws Exception {
		LockSupport.parkNanos(SETTLE.toNanos());
		ProcStat.Sample before = process.stat();
		Answer synced = process.ask("sync", "SYNCED", this.options.syncTimeout());
		double items = synced.number("items");
		if (items >= 0 && items != size) {
			throw new IllegalStateException(process.name() + " synced with " + items + " objects of " + size);
		}
		return new Answer(synced.verb(), synced.values(), synced.at(), synced.epochMillis(),
				new ProcStat.Sample(synced.stat().cpuNanos() - before.cpuNanos(), 0, synced.stat().threads(),
						synced.stat().threadCpuSince(before)));
	}

	/**
	 * Record the CPU time of each group of threads over a measurement (the answer's
	 * {@link ProcStat.Sample#threadCpuNanos()} holds the differences), divided by
	 * {@code per} nanoseconds.
	 */
	private void threads(int size, String id, int rep, String phase, Answer answer, double per) {
		answer.stat()
			.threadCpuNanos()
			.forEach((group, nanos) -> record(size, id, rep, THREAD_CPU + phase + ":" + group, nanos / per));
	}

	private static double cpuMs(Answer answer) {
		return answer.stat().cpuNanos() / 1e6;
	}

	/** One repetition of the stream: every subject at once, one writer. */
	private void stream(List<String> ids, int size, int rep) throws Exception {
		String namespace = Workload.namespace(size);
		String tag = "stream-" + size + "-r" + rep;
		List<String> order = new ArrayList<>(ids);
		Collections.rotate(order, rep);
		Map<String, SubjectProcess> processes = new LinkedHashMap<>();
		SubjectProcess writer = null;
		try {
			for (String id : order) {
				processes.put(id, this.subjects.launch(id, namespace, size, tag, this.logs, Encoding.DEFAULT));
			}
			for (SubjectProcess process : processes.values()) {
				process.await("READY", READY);
			}
			for (SubjectProcess process : processes.values()) {
				process.send("sync");
			}
			for (SubjectProcess process : processes.values()) {
				process.await("SYNCED", this.options.syncTimeout());
			}
			writer = this.subjects.launchWriter(size, this.logs, tag);
			writer.await("READY", READY);
			Options.PerProcess settings = this.options.perProcess();
			// a range of sequence numbers no earlier repetition wrote
			long warmFirst = System.currentTimeMillis() * 100;
			if (settings.streamWarmup() > 0) {
				for (SubjectProcess process : processes.values()) {
					process.send("await " + warmFirst + " " + settings.streamWarmup());
				}
				writer.ask("write " + warmFirst + " " + settings.streamWarmup() + " " + settings.streamRate(), "WROTE",
						Duration.ofMinutes(30));
				for (Map.Entry<String, SubjectProcess> entry : processes.entrySet()) {
					try {
						entry.getValue().awaitReached(warmFirst, Duration.ofSeconds(60));
					}
					catch (TimeoutException ex) {
						note("(" + entry.getKey() + ") stream " + rep + ": missed warm-up events");
					}
				}
			}
			LockSupport.parkNanos(Duration.ofSeconds(1).toNanos());
			int count = this.options.streamEvents();
			long first = warmFirst + settings.streamWarmup();
			for (SubjectProcess process : processes.values()) {
				process.send("await " + first + " " + count);
			}
			Map<String, ProcStat.Sample> before = new LinkedHashMap<>();
			processes.forEach((id, process) -> before.put(id, process.stat()));
			ProcStat.Sample writerBefore = writer.stat();
			long serverBefore = ProcStat.apiServerCpuNanos();
			long startEpoch = System.currentTimeMillis();
			Answer wrote = writer.ask("write " + first + " " + count + " " + settings.streamRate(), "WROTE",
					Duration.ofMinutes(60));
			record(size, CONTEXT, rep, WRITER_RATE, wrote.number("rate"));
			record(size, CONTEXT, rep, WRITER_CPU, (wrote.stat().cpuNanos() - writerBefore.cpuNanos()) / 1e3 / count);
			if (wrote.number("failed") > 0) {
				note("stream " + rep + ": " + (long) wrote.number("failed") + " patches failed");
			}
			long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			List<String> summary = new ArrayList<>();
			for (Map.Entry<String, SubjectProcess> entry : processes.entrySet()) {
				String id = entry.getKey();
				SubjectProcess process = entry.getValue();
				Answer reached;
				try {
					reached = process.awaitReached(first, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
				}
				catch (TimeoutException ex) {
					Answer counted = process.ask("count", "COUNT", Duration.ofSeconds(30));
					record(size, id, rep, STREAM_RECEIVED, counted.number("received"));
					note(String.format(Locale.ROOT,
							"(%s) stream repetition %d: received %.0f of %d measured events; FLAGGED, not averaged", id,
							rep, counted.number("received"), count));
					summary.add(id + " MISSED");
					continue;
				}
				ProcStat.Sample start = before.get(id);
				record(size, id, rep, STREAM_RECEIVED, reached.number("received"));
				double cpu = (reached.stat().cpuNanos() - start.cpuNanos()) / 1e3 / count;
				record(size, id, rep, STREAM_CPU, cpu);
				record(size, id, rep, STREAM_WAKEUPS,
						(double) (reached.stat().voluntarySwitches() - start.voluntarySwitches()) / count);
				record(size, id, rep, STREAM_THREADS, reached.stat().threads());
				reached.stat()
					.threadCpuSince(start)
					.forEach((group, nanos) -> record(size, id, rep, THREAD_CPU + "stream:" + group,
							nanos / 1e3 / count));
				window(id, tag, "stream", size, rep, count, startEpoch, reached.epochMillis());
				summary.add(String.format(Locale.ROOT, "%s %.0f µs", id, cpu));
			}
			long serverAfter = ProcStat.apiServerCpuNanos();
			if (serverBefore >= 0 && serverAfter >= 0) {
				record(size, CONTEXT, rep, SERVER_CPU, (serverAfter - serverBefore) / 1e3 / count);
			}
			Harness.log("stream r%d at %s/s: %s", rep, wrote.values().get("rate"), String.join(", ", summary));
		}
		finally {
			if (writer != null) {
				writer.close();
			}
			processes.values().forEach(SubjectProcess::close);
		}
	}

	private void note(String note) {
		if (!this.notes.contains(note)) {
			this.notes.add(note);
			Harness.log("%s", note);
		}
	}

	private void record(int size, String subject, int rep, String metric, double value) {
		if (rep >= 0) {
			this.measurements.add(new Measurement(size, subject, rep, metric, value));
		}
	}

	private void window(String id, String tag, String phase, int size, int rep, Answer synced) throws IOException {
		window(id, tag, phase, size, rep, size, (long) synced.number("start_epoch_ms"),
				(long) synced.number("end_epoch_ms"));
	}

	/**
	 * Note the time window of a measurement in a profiled subject's recording, and what
	 * it processed (objects or events).
	 */
	private void window(String id, String tag, String phase, int size, int rep, int units, long from, long to)
			throws IOException {
		Path recording = this.subjects.recording(id, tag);
		if (recording == null || rep < 0) {
			return;
		}
		Files.createDirectories(this.windows.getParent());
		Files.writeString(this.windows,
				String.join("\t", recording.toString(), id, phase, Integer.toString(size), Integer.toString(rep),
						Integer.toString(units), Long.toString(from), Long.toString(to)) + "\n",
				StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
	}

	static String loadAverage() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
			return fields[0] + " " + fields[1] + " " + fields[2] + " (1, 5, 15 min; /proc/loadavg at "
					+ Instant.now().toString().substring(0, 19) + "Z)";
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

}
