package dev.informer.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import dev.informer.benchmarks.ColdStartJvm.Archive;
import dev.informer.benchmarks.SubjectProcess.Answer;
import dev.informer.benchmarks.Summary.RatioSpec;

/**
 * Start like a script (issue 36; {@code --start}): every subject launched as a pod
 * launches it, from the process's launch to its informer synced, on one server, in one
 * run: the seed (Python), client-go, and the starter on JDK 17 (plain, with a CDS
 * archive, with Spring AOT) and on JDK 25 (an AOT cache of classes only, with the
 * training run's method profiles, each with Spring AOT or without), under each CPU limit
 * ({@link CpuLimit}: none, one core, half a core). Each launch reports its own times and
 * CPU ({@link SubjectProtocol#serveStarted}); the harness reads its threads' CPU at the
 * answer. Then the stream: the stream subjects launched fresh and synced at once, and the
 * CPU each spends over the first events after its sync. Writes {@code start.md},
 * {@code start.json} and {@code start.csv}.
 */
final class StartBenchmark {

	static final String LAUNCH_TO_SYNCED = "launch_to_synced_ms";

	static final String LAUNCH_TO_MAIN = "launch_to_main_ms";

	static final String MAIN_TO_INFORMER = "main_to_informer_ms";

	static final String INFORMER_TO_SYNCED = "informer_to_synced_ms";

	static final String CPU_TO_SYNCED = "cpu_launch_to_synced_ms";

	static final String CPU_SYNC = "cold_sync_cpu_ms";

	static final String STREAM_CPU = "stream_cpu_us_per_event";

	static final String STREAM_RECEIVED = "stream_received";

	/** The CPU of each group of threads at synced, by what it does. */
	static final String THREAD_CPU = "cpu_threads:";

	static final List<String> METRICS = List.of(LAUNCH_TO_SYNCED, LAUNCH_TO_MAIN, MAIN_TO_INFORMER, INFORMER_TO_SYNCED,
			CPU_TO_SYNCED, CPU_SYNC);

	static final List<String> SUBJECTS = List.of("s", "g", "g-json", "b-17", "b-17-cds", "b-17-cds-saot",
			"b-17-cds-saot-c1", "b-25-aotc", "b-25-aotc-saot", "b-25-aot", "b-25-aot-saot", "b-25-aot-saot-c1");

	/**
	 * The JIT's tier 1 only: C1 compiles, C2 never does. Most of a cold start's CPU is
	 * the JIT compiling the decode path while it runs ({@code docs/benchmarks.md}, where
	 * the time goes); C1's code is slower than C2's but costs a fraction to compile.
	 */
	static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

	/** The issue's four processes on one stream, and the fastest-starting starters. */
	static final List<String> STREAM_SUBJECTS = List.of("s", "g", "b-17", "b-17-cds-saot", "b-25-aot-saot",
			"b-25-aot-saot-c1");

	private static final Duration STARTED = Duration.ofMinutes(10);

	/**
	 * One subject of the start benchmark.
	 *
	 * @param id its id in the report
	 * @param description what runs
	 * @param jvm how its JVM is launched, or {@code null} for the seed and client-go
	 * @param profiles whether a JDK 25 AOT cache keeps the training run's method profiles
	 * @param springAot whether the application runs Spring's generated code
	 */
	record Config(String id, String description, ColdStartJvm jvm, boolean profiles, boolean springAot) {

		boolean isJvm() {
			return this.jvm != null;
		}

		List<String> jvmOptions(Path archive, boolean training) {
			List<String> options = new ArrayList<>(
					training ? this.jvm.trainingOptions(archive) : this.jvm.launchOptions(archive));
			if (this.jvm.archive() == Archive.AOT_CACHE && !this.profiles) {
				options.add(0, "-XX:+UnlockDiagnosticVMOptions");
				options.add(training ? "-XX:-AOTRecordTraining" : "-XX:-AOTReplayTraining");
			}
			if (this.springAot) {
				options.add("-Dspring.aot.enabled=true");
			}
			return options;
		}

	}

	private final Options options;

	private final ApiServer server;

	private final Path kubeConfig;

	private final SeedPython seed;

	private final GoSubject go;

	private final Map<String, Config> configs;

	private final String classPath;

	private final Path work;

	private final List<Measurement> measurements = new ArrayList<>();

	private final List<String> notes = new ArrayList<>();

	private final Map<String, String> conditions = new LinkedHashMap<>();

	private final long ticks = ProcStat.TICKS_PER_SECOND;

	private StartBenchmark(Options options, ApiServer server, Path kubeConfig, SeedPython seed, GoSubject go,
			Map<String, Config> configs, String classPath, Path work) {
		this.options = options;
		this.server = server;
		this.kubeConfig = kubeConfig;
		this.seed = seed;
		this.go = go;
		this.configs = configs;
		this.classPath = classPath;
		this.work = work;
	}

	/**
	 * The subjects this machine can run; what it cannot is noted with the reason.
	 */
	static Map<String, Config> configs(Path jdk25, List<String> skipped) {
		Path jdk17 = Path.of(System.getProperty("java.home"));
		Class<?> main = StartSubject.class;
		Map<String, Config> configs = new LinkedHashMap<>();
		configs.put("s", new Config("s",
				"the seed: the Python client's SharedInformer (PyPI kubernetes " + SeedPython.PACKAGE_VERSION + ")",
				null, false, false));
		configs.put("g",
				new Config("g",
						"client-go v0.37.2 with its defaults: protobuf, a watch-list for the initial state, gzip", null,
						false, false));
		configs.put("g-json", new Config("g-json", "client-go asking for JSON, a list and a watch, no compression",
				null, false, false));
		String starter = "the starter (Spring Boot, InformerAutoConfiguration, one informer, one listener)";
		configs.put("b-17",
				new Config("b-17", starter + " on JDK " + ColdStartJvm.featureVersion(jdk17) + ", no archive",
						new ColdStartJvm("b-17", main, jdk17, Archive.NONE), false, false));
		configs.put("b-17-cds", new Config("b-17-cds", "(b-17) with a dynamic CDS archive of a training run",
				new ColdStartJvm("b-17-cds", main, jdk17, Archive.CDS), false, false));
		configs.put("b-17-cds-saot", new Config("b-17-cds-saot", "(b-17-cds) running Spring AOT's generated code",
				new ColdStartJvm("b-17-cds-saot", main, jdk17, Archive.CDS), false, true));
		configs.put("b-17-cds-saot-c1",
				new Config("b-17-cds-saot-c1", "(b-17-cds-saot) compiling with C1 only (" + C1_ONLY + ")",
						new ColdStartJvm("b-17-cds-saot-c1", main, jdk17, Archive.CDS, false, List.of(C1_ONLY)), false,
						true));
		Integer version = ColdStartJvm.featureVersion(jdk25);
		if (version == null || version < 25) {
			skipped.add("SKIPPED: the JDK 25 subjects: no JDK 25 or later at " + jdk25 + " (--jdk25=PATH names one)");
			return configs;
		}
		configs.put("b-25-aotc",
				new Config("b-25-aotc",
						"the starter on JDK " + version + " with an AOT cache of classes only (-XX:-AOTRecordTraining)",
						new ColdStartJvm("b-25-aotc", main, jdk25, Archive.AOT_CACHE), false, false));
		configs.put("b-25-aotc-saot", new Config("b-25-aotc-saot", "(b-25-aotc) running Spring AOT's generated code",
				new ColdStartJvm("b-25-aotc-saot", main, jdk25, Archive.AOT_CACHE), false, true));
		configs.put("b-25-aot",
				new Config("b-25-aot",
						"the starter on JDK " + version + " with an AOT cache and the training run's method profiles",
						new ColdStartJvm("b-25-aot", main, jdk25, Archive.AOT_CACHE), true, false));
		configs.put("b-25-aot-saot", new Config("b-25-aot-saot", "(b-25-aot) running Spring AOT's generated code",
				new ColdStartJvm("b-25-aot-saot", main, jdk25, Archive.AOT_CACHE), true, true));
		configs.put("b-25-aot-saot-c1",
				new Config("b-25-aot-saot-c1", "(b-25-aot-saot) compiling with C1 only (" + C1_ONLY + ")",
						new ColdStartJvm("b-25-aot-saot-c1", main, jdk25, Archive.AOT_CACHE, false, List.of(C1_ONLY)),
						true, true));
		return configs;
	}

	/**
	 * Run it and write {@code start.md}, {@code start.json} and {@code start.csv}.
	 * @param options the run's options
	 * @return the markdown
	 * @throws Exception on failure
	 */
	static String run(Options options) throws Exception {
		Path output = options.output().toAbsolutePath();
		Path work = output.resolve("start");
		Files.createDirectories(work);
		Map<String, String> context = new LinkedHashMap<>();
		context.put("load average at start", PerProcessBenchmark.loadAverage());
		try (ApiServer server = ApiServer.start(false)) {
			if (!server.isReal()) {
				String skipped = "SKIPPED: the start benchmark launches clients in processes of their own and needs "
						+ "the real API server (binaries under ~/.kubeapitest, see scripts/envtest.sh); this run has "
						+ server.label() + "\n";
				Files.writeString(output.resolve("start.md"), skipped);
				return skipped;
			}
			Path kubeConfig = work.resolve("kubeconfig.yaml");
			Files.writeString(kubeConfig, server.kubeConfigForProcesses());
			SeedPython seed = SeedPython.install(output.resolve("seed-venv"));
			GoSubject go = GoSubject.build(options.perProcess().go(), output.resolve("go"));
			List<String> skipped = new ArrayList<>();
			Map<String, Config> configs = configs(options.jdk25(), skipped);
			String classPath = ColdStartJvm.jarsOnly(System.getProperty("java.class.path"), work.resolve("classpath"));
			StartBenchmark benchmark = new StartBenchmark(options, server, kubeConfig, seed, go, configs, classPath,
					work);
			skipped.forEach(benchmark::note);
			context.put("server", server.label());
			context.put("machine", Runtime.getRuntime().availableProcessors() + " CPUs, "
					+ System.getProperty("os.name") + " " + System.getProperty("os.arch"));
			context.put("seed", seed.status());
			context.put("client-go", go.status());
			benchmark.run();
			context.put("load average at end", PerProcessBenchmark.loadAverage());
			context.put("workload", benchmark.workload());
			context.putAll(benchmark.conditions);
			Summary summary = new Summary(benchmark.measurements, benchmark.ratios());
			Map<String, String> legend = new LinkedHashMap<>();
			configs.forEach((id, config) -> legend.put(id, config.description()));
			String markdown = new StartReport(context, legend, summary, benchmark.notes, benchmark.options).markdown();
			Files.writeString(output.resolve("start.md"), markdown);
			new Report(context, legend, summary, List.of()).writeData(output, "start");
			return markdown;
		}
	}

	private String workload() {
		return String.format(Locale.ROOT,
				"%d ConfigMaps of ~1 KiB (server-side applied); %d discarded + %d measured repetitions per CPU limit, "
						+ "a fresh process per subject and repetition, order rotated; stream: %d JSON merge patches "
						+ "at %d/s from a writer process right after the stream subjects synced, %d repetitions",
				size(), this.options.warmups(), this.options.repetitions(), this.options.streamEvents(),
				this.options.perProcess().streamRate(), this.options.repetitions());
	}

	private int size() {
		return this.options.sizes().get(0);
	}

	private void run() throws Exception {
		Workload workload = new Workload(this.server, 4);
		try {
			workload.populate(size());
		}
		finally {
			workload.close();
		}
		List<String> subjects = available(this.options.subjects().isEmpty() ? SUBJECTS : this.options.subjects());
		for (String id : subjects) {
			Config config = this.configs.get(id);
			if (config.isJvm() && config.jvm().archive() != Archive.NONE) {
				train(config);
			}
		}
		for (String limitId : this.options.start().limits()) {
			try (CpuLimit limit = CpuLimit.of(limitId)) {
				if (limit.skipped() != null) {
					note("CPU limit " + limitId + ": " + limit.skipped());
					this.conditions.put("CPU limit " + limitId, limit.skipped());
					continue;
				}
				this.conditions.put("CPU limit " + limitId, limit.description());
				for (int rep = -this.options.warmups(); rep < this.options.repetitions(); rep++) {
					List<String> order = new ArrayList<>(subjects);
					Collections.rotate(order, Math.floorMod(rep, Math.max(1, order.size())));
					for (String id : order) {
						launch(this.configs.get(id), limit, rep);
					}
				}
			}
		}
		List<String> stream = available(
				this.options.perProcess().streamSubjects().isEmpty() ? STREAM_SUBJECTS.stream().filter((id) -> {
					return this.options.subjects().isEmpty() || this.options.subjects().contains(id);
				}).toList() : this.options.perProcess().streamSubjects());
		if (!stream.isEmpty() && this.options.streamEvents() > 0) {
			for (int rep = 0; rep < this.options.repetitions(); rep++) {
				stream(stream, rep);
			}
		}
	}

	private List<String> available(List<String> requested) {
		List<String> available = new ArrayList<>();
		for (String id : requested) {
			Config config = this.configs.get(id);
			if (config == null) {
				if (!SUBJECTS.contains(id)) {
					throw new IllegalArgumentException("No start subject '" + id + "'; there are " + SUBJECTS);
				}
				continue;
			}
			if (id.equals("s") && !this.seed.available()) {
				note("(s) " + this.seed.status());
			}
			else if (id.startsWith("g") && !this.go.available()) {
				note("(" + id + ") " + this.go.status());
			}
			else {
				available.add(id);
			}
		}
		return available;
	}

	private List<String> command(Config config, Path archive, boolean training) {
		String namespace = Workload.namespace(size());
		return switch (config.id()) {
			case "s" -> this.seed.startCommand(namespace, size());
			case "g" -> this.go.command(namespace, size(), false, true, true);
			case "g-json" -> this.go.command(namespace, size(), true, false, true);
			default -> {
				List<String> options = config.jvmOptions(archive, training);
				options.add("-Dkubeconfig=" + this.kubeConfig);
				yield config.jvm()
					.command(options, this.classPath,
							List.of("--informer.resources.configmaps.namespaces=" + namespace));
			}
		};
	}

	private Map<String, String> environment(Config config) {
		Map<String, String> environment = new LinkedHashMap<>();
		environment.put("KUBECONFIG", this.kubeConfig.toString());
		environment.put("BENCH_EXPECTED", Integer.toString(size()));
		environment.put("BENCH_CLK_TCK", Long.toString(this.ticks));
		if (config.id().equals("g-json")) {
			environment.put("KUBE_FEATURE_WatchListClient", "false");
		}
		return environment;
	}

	private Path archive(Config config) {
		return this.work.resolve("archives")
			.resolve(config.id() + ((config.jvm().archive() == Archive.CDS) ? ".jsa" : ".aot"));
	}

	/**
	 * The training run of an archive: a start that syncs, as a build or first pod would.
	 */
	private void train(Config config) throws Exception {
		Path archive = archive(config);
		Files.createDirectories(archive.getParent());
		Files.deleteIfExists(archive);
		long started = System.nanoTime();
		try (SubjectProcess process = SubjectProcess.start(config.id() + "-training", command(config, archive, true),
				environment(config), this.work.resolve("logs").resolve("training-" + config.id() + ".log"))) {
			process.await("STARTED", STARTED);
			process.send("exit");
			process.awaitExit(Duration.ofMinutes(10));
		}
		if (!Files.isRegularFile(archive)) {
			throw new IllegalStateException("The training run of (" + config.id() + ") wrote no " + archive);
		}
		Harness.log("start: (%s) trained on a sync of %d objects in %.1f s: %s, %.1f MiB", config.id(), size(),
				(System.nanoTime() - started) / 1e9, archive.getFileName(), Files.size(archive) / 1048576.0);
	}

	private void launch(Config config, CpuLimit limit, int rep) throws Exception {
		String label = limit.label(config.id());
		Path log = this.work.resolve("logs").resolve(String.format(Locale.ROOT, "%s-r%d.log", label, rep));
		List<String> command = limit.wrap(command(config, config.isJvm() ? archive(config) : null, false));
		Instant launched = Instant.now();
		try (SubjectProcess process = SubjectProcess.start(label, command, environment(config), log)) {
			Answer started = process.await("STARTED", STARTED);
			double items = started.number("items");
			if (items != size()) {
				throw new IllegalStateException("(" + label + ") synced with " + items + " objects of " + size());
			}
			double launchedMs = launched.toEpochMilli() + (launched.getNano() % 1_000_000) / 1e6;
			double main = started.number("main_epoch_ms");
			double informer = started.number("informer_epoch_ms");
			double synced = started.number("synced_epoch_ms");
			record(label, rep, LAUNCH_TO_SYNCED, synced - launchedMs);
			record(label, rep, LAUNCH_TO_MAIN, main - launchedMs);
			record(label, rep, MAIN_TO_INFORMER, informer - main);
			record(label, rep, INFORMER_TO_SYNCED, synced - informer);
			record(label, rep, CPU_TO_SYNCED, started.number("synced_cpu_ms"));
			record(label, rep, CPU_SYNC, started.number("synced_cpu_ms") - started.number("informer_cpu_ms"));
			Map<String, Double> byRole = new LinkedHashMap<>();
			started.stat()
				.threadCpuNanos()
				.forEach((group, nanos) -> byRole.merge(role(config, group), nanos / 1e6, Double::sum));
			byRole.forEach((role, ms) -> record(label, rep, THREAD_CPU + role, ms));
			Harness.log(
					"start r%d (%s): launch → synced %.0f ms (informer → synced %.0f ms), CPU %.0f ms "
							+ "(cold sync %.0f ms)",
					rep, label, synced - launchedMs, synced - informer, started.number("synced_cpu_ms"),
					started.number("synced_cpu_ms") - started.number("informer_cpu_ms"));
		}
	}

	/**
	 * What a group of threads does, for the profile by phase: the JIT compilers, the
	 * garbage collector, the HTTP client's threads (TLS, the bytes of the list), the
	 * client's executor (fabric8: the list body read and decoded, the informer's
	 * callbacks), the starter's delivery threads, the main thread (the JVM's start, the
	 * application context, the client) and the rest.
	 */
	static String role(Config config, String group) {
		if (!config.isJvm()) {
			return "process";
		}
		if (group.startsWith("C1 ") || group.startsWith("C2 ")) {
			return "jit";
		}
		if (group.startsWith("GC ") || group.startsWith("G1 ") || group.startsWith("VM Thread")) {
			return "gc-vm";
		}
		if (group.startsWith("HttpClient")) {
			return "http";
		}
		if (group.startsWith("JdkHttpClientFa") || group.equals("-N-pool-N-thread-N")) {
			return "client";
		}
		if (group.startsWith("informer")) {
			return "delivery";
		}
		if (group.equals("java") || group.equals("main")) {
			return "main";
		}
		return "other";
	}

	/** One repetition of the stream: the stream subjects launched at once, one writer. */
	private void stream(List<String> ids, int rep) throws Exception {
		List<String> order = new ArrayList<>(ids);
		Collections.rotate(order, rep);
		Map<String, SubjectProcess> processes = new LinkedHashMap<>();
		SubjectProcess writer = null;
		Path logs = this.work.resolve("logs");
		try {
			for (String id : order) {
				Config config = this.configs.get(id);
				processes.put(id,
						SubjectProcess.start(id, command(config, config.isJvm() ? archive(config) : null, false),
								environment(config), logs.resolve("stream-" + id + "-r" + rep + ".log")));
			}
			for (SubjectProcess process : processes.values()) {
				process.await("STARTED", STARTED);
			}
			List<String> writerCommand = new ColdStartJvm("writer", WriterProcess.class,
					Path.of(System.getProperty("java.home")), Archive.NONE)
				.command(List.of("-Dkubeconfig=" + this.kubeConfig), this.classPath, List.of(Integer.toString(size())));
			writer = SubjectProcess.start("writer", writerCommand, Map.of(),
					logs.resolve("stream-writer-r" + rep + ".log"));
			writer.await("READY", STARTED);
			int count = this.options.streamEvents();
			long first = System.currentTimeMillis() * 100;
			for (SubjectProcess process : processes.values()) {
				process.send("await " + first + " " + count);
			}
			Map<String, ProcStat.Sample> before = new LinkedHashMap<>();
			processes.forEach((id, process) -> before.put(id, process.stat()));
			Answer wrote = writer.ask("write " + first + " " + count + " " + this.options.perProcess().streamRate(),
					"WROTE", Duration.ofMinutes(60));
			record("stream", rep, "writer_rate", wrote.number("rate"));
			long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			List<String> summary = new ArrayList<>();
			for (Map.Entry<String, SubjectProcess> entry : processes.entrySet()) {
				String id = entry.getKey();
				try {
					Answer reached = entry.getValue()
						.awaitReached(first, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
					double cpu = (reached.stat().cpuNanos() - before.get(id).cpuNanos()) / 1e3 / count;
					record(id, rep, STREAM_CPU, cpu);
					record(id, rep, STREAM_RECEIVED, reached.number("received"));
					summary.add(String.format(Locale.ROOT, "%s %.0f µs", id, cpu));
				}
				catch (TimeoutException ex) {
					Answer counted = entry.getValue().ask("count", "COUNT", Duration.ofSeconds(30));
					record(id, rep, STREAM_RECEIVED, counted.number("received"));
					note(String.format(Locale.ROOT,
							"(%s) stream repetition %d: received %.0f of %d events; FLAGGED, not averaged", id, rep,
							counted.number("received"), count));
				}
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

	private List<RatioSpec> ratios() {
		List<RatioSpec> ratios = new ArrayList<>();
		for (String limit : this.options.start().limits()) {
			CpuLimitLabel label = new CpuLimitLabel(limit);
			for (String id : this.configs.keySet()) {
				if (id.equals("s")) {
					continue;
				}
				double launchTarget = id.startsWith("b-25") ? 1.0 : id.startsWith("b-17") ? 1.5 : Double.NaN;
				double cpuTarget = id.startsWith("b-") ? 1.5 : Double.NaN;
				ratios.add(RatioSpec.cost(LAUNCH_TO_SYNCED, label.of(id), label.of("s"), launchTarget));
				ratios.add(RatioSpec.cost(CPU_SYNC, label.of(id), label.of("s"), cpuTarget));
				ratios.add(RatioSpec.cost(CPU_TO_SYNCED, label.of(id), label.of("s")));
				if (id.startsWith("b-") && !id.equals("b-17")) {
					ratios.add(RatioSpec.cost(LAUNCH_TO_SYNCED, label.of(id), label.of("b-17")));
				}
			}
			if (!limit.equals("none")) {
				for (String id : this.configs.keySet()) {
					// what the limit costs each subject
					ratios.add(RatioSpec.cost(LAUNCH_TO_SYNCED, label.of(id), id));
				}
			}
		}
		for (String id : this.configs.keySet()) {
			if (!id.equals("s")) {
				ratios.add(RatioSpec.cost(STREAM_CPU, id, "s", id.startsWith("b-") ? 1.5 : Double.NaN));
			}
		}
		return ratios;
	}

	/** Subject ids under one CPU limit, as {@link CpuLimit#label} writes them. */
	private record CpuLimitLabel(String limit) {

		String of(String subject) {
			return this.limit.equals("none") ? subject : subject + "@" + this.limit;
		}

	}

	private void note(String note) {
		if (!this.notes.contains(note)) {
			this.notes.add(note);
			Harness.log("%s", note);
		}
	}

	private void record(String subject, int rep, String metric, double value) {
		if (rep >= 0) {
			this.measurements.add(new Measurement(size(), subject, rep, metric, value));
		}
	}

}
