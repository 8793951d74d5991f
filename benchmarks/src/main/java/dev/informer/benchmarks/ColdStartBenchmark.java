package dev.informer.benchmarks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.informer.benchmarks.ColdStartJvm.Archive;

/**
 * Cold start: a fresh process per repetition, from its launch to its informer synced, on
 * the same server and objects as the other benchmarks. Subjects: (s) the Python client's
 * informer ({@link SeedPython}), (a) raw fabric8 and (b) the starter in a new JVM
 * ({@link ColdStartProcesses}), (a-boot) the same Spring Boot application without the
 * starter, then raw fabric8, and the same JVMs with what the JVM offers without code
 * changes ({@link ColdStartJvm}): (b-cds) JDK 17 with a CDS archive of a training run,
 * (a-25) and (b-25) on JDK 25, (a-25-aot) and (b-25-aot) on JDK 25 with an AOT cache of a
 * training run. Each process reports its own CPU time at synced. Writes
 * {@code cold-start.md}.
 */
final class ColdStartBenchmark {

	/** Where the JDK 25 subjects' JDK is looked for unless {@code --jdk25=} says. */
	static final Path DEFAULT_JDK25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");

	private static final List<String> SUBJECTS = List.of("s", "a", "a-boot", "b", "b-meta", "c", "b-cds",
			"b-cds-refresh", "a-25", "b-25", "a-25-aot", "b-25-aot", "b-25-aot-refresh");

	private static final List<String> METRICS = List.of("synced_ms", "before_informer_ms", "time_to_sync_ms", "cpu_ms",
			"warm_sync_ms", "warm_cpu_ms", "threads", "classes");

	/** The subjects that sync again, warm, in the process of each measured launch. */
	private static final List<String> WARM = List.of("s", "a", "a-boot", "b");

	/**
	 * Warm syncs after the cold one, in each measured launch of a {@link #WARM} subject.
	 */
	static final int WARM_SYNCS = 3;

	/** Ratios reported, numerator and denominator, when both subjects ran. */
	private static final List<List<String>> PAIRS = List.of(List.of("b", "s"), List.of("a", "s"),
			List.of("a-boot", "s"), List.of("b-meta", "s"), List.of("c", "s"), List.of("b-cds", "s"),
			List.of("b-cds-refresh", "s"), List.of("b-25", "s"), List.of("b-25-aot", "s"),
			List.of("b-25-aot-refresh", "s"), List.of("a-25-aot", "s"), List.of("b", "a"), List.of("a-boot", "a"),
			List.of("b", "a-boot"), List.of("b-meta", "a"), List.of("c", "a"), List.of("c", "b"),
			List.of("b-25", "a-25"), List.of("b-25-aot", "a-25-aot"), List.of("b-cds", "b"),
			List.of("b-cds-refresh", "b"), List.of("b-25", "b"), List.of("b-25-aot", "b"),
			List.of("b-25-aot-refresh", "b"));

	private final ApiServer server;

	private final SeedPython seed;

	private final Path kubeConfig;

	private final Map<String, ColdStartJvm> jvms;

	private final List<String> skipped;

	private final String classPath;

	private final Path archives;

	private final List<String> jvmOptions;

	private final int repetitions;

	private int launches;

	private ColdStartBenchmark(ApiServer server, SeedPython seed, Path kubeConfig, Map<String, ColdStartJvm> jvms,
			List<String> skipped, String classPath, Path archives, List<String> jvmOptions, int repetitions) {
		this.jvmOptions = jvmOptions;
		this.repetitions = repetitions;
		this.server = server;
		this.seed = seed;
		this.kubeConfig = kubeConfig;
		this.jvms = jvms;
		this.skipped = skipped;
		this.classPath = classPath;
		this.archives = archives;
	}

	/**
	 * The JVM subjects this machine can run, by id, in {@link #SUBJECTS} order; what it
	 * cannot run is added to {@code skipped} with the reason.
	 * @param jdk25 the JDK of the JDK 25 subjects
	 * @param skipped where to say why a subject is left out
	 * @return the JVM subjects
	 */
	static Map<String, ColdStartJvm> jvms(Path jdk25, List<String> skipped) {
		Path current = Path.of(System.getProperty("java.home"));
		Map<String, ColdStartJvm> jvms = new LinkedHashMap<>();
		jvms.put("a", new ColdStartJvm("a", ColdStartProcesses.RawFabric8.class, current, Archive.NONE));
		jvms.put("a-boot",
				new ColdStartJvm("a-boot", ColdStartProcesses.BootThenRawFabric8.class, current, Archive.NONE));
		jvms.put("b", new ColdStartJvm("b", ColdStartProcesses.Starter.class, current, Archive.NONE));
		jvms.put("b-meta", new ColdStartJvm("b-meta", ColdStartProcesses.Starter.class, current, Archive.NONE, false,
				List.of("-Dinformer.resources.configmaps.cache=metadata")));
		jvms.put("c", new ColdStartJvm("c", ColdStartProcesses.Full.class, current, Archive.NONE));
		jvms.put("b-cds", new ColdStartJvm("b-cds", ColdStartProcesses.Starter.class, current, Archive.CDS));
		jvms.put("b-cds-refresh",
				new ColdStartJvm("b-cds-refresh", ColdStartProcesses.Starter.class, current, Archive.CDS, true));
		Integer version = ColdStartJvm.featureVersion(jdk25);
		if (version == null || version < 25) {
			skipped.add("SKIPPED: a-25, b-25, a-25-aot, b-25-aot, b-25-aot-refresh: no JDK 25 or later at " + jdk25
					+ " (--jdk25=PATH names one)" + ((version != null) ? "; it is JDK " + version : ""));
		}
		else {
			jvms.put("a-25", new ColdStartJvm("a-25", ColdStartProcesses.RawFabric8.class, jdk25, Archive.NONE));
			jvms.put("b-25", new ColdStartJvm("b-25", ColdStartProcesses.Starter.class, jdk25, Archive.NONE));
			jvms.put("a-25-aot",
					new ColdStartJvm("a-25-aot", ColdStartProcesses.RawFabric8.class, jdk25, Archive.AOT_CACHE));
			jvms.put("b-25-aot",
					new ColdStartJvm("b-25-aot", ColdStartProcesses.Starter.class, jdk25, Archive.AOT_CACHE));
			jvms.put("b-25-aot-refresh", new ColdStartJvm("b-25-aot-refresh", ColdStartProcesses.Starter.class, jdk25,
					Archive.AOT_CACHE, true));
		}
		return jvms;
	}

	/**
	 * Populate every size on a server of its own, measure, and write
	 * {@code cold-start.md}; on the mock server, write why nothing was measured.
	 * @param options the run's options
	 * @return the markdown
	 * @throws Exception on failure
	 */
	static String run(Options options) throws Exception {
		Files.createDirectories(options.output());
		Path report = options.output().resolve("cold-start.md");
		try (ApiServer server = ApiServer.start(options.mock())) {
			String yaml = server.kubeConfigYaml();
			if (yaml == null) {
				String skipped = "SKIPPED: the cold-start benchmark launches clients in other processes and needs "
						+ "the real API server (binaries under ~/.kubeapitest, see scripts/envtest.sh); this run has "
						+ server.label() + "\n";
				Harness.log("%s", skipped);
				Files.writeString(report, skipped);
				return skipped;
			}
			SeedPython seed = SeedPython.install(Path.of("target", "seed-venv").toAbsolutePath());
			Harness.log("seed (s): %s", seed.status());
			List<String> skipped = new ArrayList<>();
			Map<String, ColdStartJvm> jvms = jvms(options.jdk25(), skipped);
			skipped.forEach((line) -> Harness.log("%s", line));
			Path archives = options.output().toAbsolutePath().resolve("cold-start");
			String classPath = ColdStartJvm.jarsOnly(System.getProperty("java.class.path"),
					archives.resolve("classpath"));
			Path kubeConfig = Files.createTempFile("bench-kubeconfig", ".yaml");
			try {
				Files.writeString(kubeConfig, yaml);
				String markdown = new ColdStartBenchmark(server, seed, kubeConfig, jvms, skipped, classPath, archives,
						options.jvmOptions(), options.repetitions())
					.measure(options.sizes(), options.subjects(), server.label());
				Files.writeString(report, markdown);
				return markdown;
			}
			finally {
				Files.deleteIfExists(kubeConfig);
			}
		}
	}

	private String measure(List<Integer> sizes, List<String> only, String serverLabel) throws Exception {
		List<String> subjects = SUBJECTS.stream()
			.filter((id) -> only.isEmpty() || only.contains(id))
			.filter((id) -> id.equals("s") ? this.seed.available() : this.jvms.containsKey(id))
			.toList();
		// size -> subject -> metric -> one value per repetition
		Map<Integer, Map<String, Map<String, List<Double>>>> results = new LinkedHashMap<>();
		Workload workload = new Workload(this.server, 4);
		try {
			for (int size : sizes) {
				Harness.log("cold start: populating %d ConfigMaps", size);
				workload.populate(size);
			}
		}
		finally {
			workload.close();
		}
		// the archives, from a training run on the first size, as a build would make them
		for (String subject : subjects) {
			ColdStartJvm jvm = this.jvms.get(subject);
			if (jvm != null && jvm.archive() != Archive.NONE) {
				train(jvm, sizes.get(0));
			}
		}
		// one discarded launch each: Python's bytecode cache, the OS's file cache
		for (String subject : subjects) {
			launch(subject, sizes.get(0), 0);
		}
		for (int size : sizes) {
			Map<String, Map<String, List<Double>>> bySubject = new LinkedHashMap<>();
			for (int repetition = 0; repetition < this.repetitions; repetition++) {
				for (int i = 0; i < subjects.size(); i++) {
					// rotated every repetition, so that no subject always follows another
					String subject = subjects.get((i + repetition) % subjects.size());
					Map<String, Double> sample = launch(subject, size, WARM.contains(subject) ? WARM_SYNCS : 0);
					Harness.log("cold start %d #%d (%s): %s", size, repetition, subject, sample);
					Map<String, List<Double>> metrics = bySubject.computeIfAbsent(subject, (key) -> new HashMap<>());
					for (String metric : METRICS) {
						metrics.computeIfAbsent(metric, (key) -> new ArrayList<>())
							.add(sample.getOrDefault(metric, Double.NaN));
					}
				}
			}
			results.put(size, bySubject);
		}
		return table(results, subjects, serverLabel);
	}

	private Map<String, Double> launch(String subject, int size, int warmSyncs) throws Exception {
		String namespace = Workload.namespace(size);
		Instant now = Instant.now();
		String launchedAt = String.format(Locale.ROOT, "%d.%06d", now.getEpochSecond(), now.getNano() / 1000);
		List<String> command;
		if (subject.equals("s")) {
			command = this.seed.command(namespace, size, launchedAt);
		}
		else {
			ColdStartJvm jvm = this.jvms.get(subject);
			command = java(jvm, jvm.launchOptions(archive(jvm)), namespace, size, launchedAt);
		}
		command.add(Integer.toString(warmSyncs));
		Map<String, Double> sample = run(subject, command, size);
		sample.put("before_informer_ms", sample.get("synced_ms") - sample.getOrDefault("time_to_sync_ms", Double.NaN));
		return sample;
	}

	private void train(ColdStartJvm jvm, int size) throws Exception {
		Path archive = archive(jvm);
		Files.createDirectories(archive.getParent());
		Files.deleteIfExists(archive);
		String namespace = Workload.namespace(size);
		Instant now = Instant.now();
		String launchedAt = String.format(Locale.ROOT, "%d.%06d", now.getEpochSecond(), now.getNano() / 1000);
		List<String> command = java(jvm, jvm.trainingOptions(archive), namespace, size, launchedAt);
		if (jvm.refreshOnly()) {
			// as in an image build: no cluster, the context halts after its refresh
			runToExit(jvm.id() + " training", command, archive.resolveSibling("no-kubeconfig"));
		}
		else {
			run(jvm.id() + " training", command, size);
		}
		if (!Files.isRegularFile(archive)) {
			throw new IllegalStateException("The training run of (" + jvm.id() + ") wrote no " + archive);
		}
		Harness.log("cold start: (%s) trained %s, %s: %.1f MiB", jvm.id(),
				jvm.refreshOnly() ? "on a context refresh without a server" : "on a sync of " + size + " objects",
				archive, Files.size(archive) / 1048576.0);
	}

	private void runToExit(String subject, List<String> command, Path kubeConfig) throws Exception {
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
		builder.environment().put("KUBECONFIG", kubeConfig.toString());
		List<String> withoutServer = new ArrayList<>(command);
		withoutServer
			.replaceAll((option) -> option.startsWith("-Dkubeconfig=") ? "-Dkubeconfig=" + kubeConfig : option);
		builder.command(withoutServer);
		Path output = Files.createTempFile("cold-start", ".log");
		try {
			Process process = builder.redirectOutput(output.toFile()).start();
			if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
				process.destroyForcibly();
				throw new IllegalStateException(
						"(" + subject + ") failed:\n" + Files.readString(output, StandardCharsets.UTF_8));
			}
		}
		finally {
			Files.deleteIfExists(output);
		}
	}

	private Path archive(ColdStartJvm jvm) {
		return this.archives.resolve(jvm.id() + ((jvm.archive() == Archive.CDS) ? ".jsa" : ".aot"));
	}

	private Map<String, Double> run(String subject, List<String> command, int size) throws Exception {
		Path output = Files.createTempFile("cold-start", ".log");
		try {
			ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(output.toFile());
			builder.environment().put("KUBECONFIG", this.kubeConfig.toString());
			Process process = builder.start();
			if (!process.waitFor(10, TimeUnit.MINUTES)) {
				process.destroyForcibly();
				throw new IllegalStateException("Cold start of (" + subject + ") did not end within 10 minutes");
			}
			String text = Files.readString(output, StandardCharsets.UTF_8);
			Map<String, Double> sample = parse(text);
			if (process.exitValue() != 0 || !sample.containsKey("synced_ms")) {
				throw new IllegalStateException(
						"Cold start of (" + subject + ") failed, exit code " + process.exitValue() + ":\n" + text);
			}
			if (sample.getOrDefault("cached", 0.0) != size) {
				throw new IllegalStateException(
						"(" + subject + ") synced with " + sample.get("cached") + " objects cached, expected " + size);
			}
			return sample;
		}
		finally {
			if (this.jvmOptions.isEmpty()) {
				Files.deleteIfExists(output);
			}
			else {
				// profiling: keep what the process printed
				Path kept = this.archives.resolve("logs")
					.resolve(String.format(Locale.ROOT, "%03d-%s-%d.log", ++this.launches, subject.replace(' ', '-'),
							size));
				Files.createDirectories(kept.getParent());
				Files.move(output, kept);
			}
		}
	}

	private List<String> java(ColdStartJvm jvm, List<String> archiveOptions, String namespace, int size,
			String launchedAt) {
		List<String> options = new ArrayList<>(archiveOptions);
		options.addAll(this.jvmOptions);
		options.add("-Dkubeconfig=" + this.kubeConfig);
		return jvm.command(options, this.classPath, List.of(namespace, Integer.toString(size), launchedAt));
	}

	static Map<String, Double> parse(String output) {
		Map<String, Double> values = new LinkedHashMap<>();
		output.lines()
			.filter((line) -> line.startsWith(ColdStartProcesses.PREFIX))
			.reduce((first, second) -> second)
			.ifPresent((line) -> values.putAll(pairs(line.substring(ColdStartProcesses.PREFIX.length()))));
		// warm: the median of the syncs after the first in the same process
		List<Map<String, Double>> warm = output.lines()
			.filter((line) -> line.startsWith(ColdStartProcesses.WARM_PREFIX))
			.map((line) -> pairs(line.substring(ColdStartProcesses.WARM_PREFIX.length())))
			.toList();
		if (!warm.isEmpty()) {
			values.put("warm_sync_ms", median(warm, "time_to_sync_ms"));
			values.put("warm_cpu_ms", median(warm, "cpu_ms"));
		}
		return values;
	}

	private static Map<String, Double> pairs(String text) {
		Map<String, Double> values = new LinkedHashMap<>();
		for (String pair : text.trim().split("\\s+")) {
			int eq = pair.indexOf('=');
			if (eq > 0) {
				try {
					values.put(pair.substring(0, eq), Double.valueOf(pair.substring(eq + 1)));
				}
				catch (NumberFormatException ex) {
					// not a number (an error message): leave it out
				}
			}
		}
		return values;
	}

	private static double median(List<Map<String, Double>> samples, String metric) {
		double[] values = samples.stream().mapToDouble((sample) -> sample.getOrDefault(metric, Double.NaN)).toArray();
		return Summary.stat(0, "", metric, values).median();
	}

	private String table(Map<Integer, Map<String, Map<String, List<Double>>>> results, List<String> subjects,
			String serverLabel) {
		StringBuilder md = new StringBuilder();
		md.append(String.format(Locale.ROOT,
				"Cold start on %s: a fresh process per repetition, %d repetitions (subject order rotated), "
						+ "after one discarded launch of each; median [min–max].%n"
						+ "(s) %s; (a) raw fabric8 %s in a new JVM; (b) the starter in a new JVM "
						+ "(Spring Boot application, InformerAutoConfiguration, one informer, one no-op listener); "
						+ "(a-boot) the same application without the starter, then (a)'s informer; (b-meta) (b) with "
						+ "cache: metadata; (c) the starter with health, Micrometer + Prometheus, the endpoint and ten "
						+ "listeners, four with SpEL conditions (every auto-configuration of the classpath).%n"
						+ "JVMs: %s%n"
						+ "Archives from one training run each, a sync of %d objects unless *-refresh: (b-cds) JDK 17's dynamic CDS archive "
						+ "(-XX:ArchiveClassesAtExit, then -XX:SharedArchiveFile -Xshare:on); (*-25-aot) JDK 25's AOT "
						+ "cache (-XX:AOTCacheOutput, then -XX:AOTCache -XX:AOTMode=on); (*-refresh) trained as Spring "
						+ "Boot documents it and an image build runs it: -Dspring.context.exit=onRefresh, no server, "
						+ "so no sync.%n"
						+ "launch → synced: from just before the process is launched to its informer synced "
						+ "(for (b): InformerSyncedEvent); launch → informer: the part before the informer starts; "
						+ "informer → synced: from the informer's start "
						+ "(for (b): InformerSyncedEvent.getTimeToSync()); CPU: the process's CPU time at synced; "
						+ "warm: the median of " + WARM_SYNCS + " more informers started one after another in the same "
						+ "process (for (b): each in a new context) after the cold one, and their CPU from informer start "
						+ "to synced; threads: the JVM's peak live threads; classes: classes loaded, at the cold sync.%n%n",
				serverLabel, this.repetitions, this.seed.status(), io.fabric8.kubernetes.client.Version.clientVersion(),
				jvmsDescription(subjects), results.keySet().iterator().next()));
		md.append("| size | subject | launch → synced ms | launch → informer ms | informer → synced ms "
				+ "| process CPU ms | warm: informer → synced ms | warm: sync CPU ms | peak threads | classes loaded |\n");
		md.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
		results.forEach((size, bySubject) -> bySubject.forEach((subject, metrics) -> {
			md.append("| ").append(size).append(" | ").append(subject);
			for (String metric : METRICS) {
				md.append(" | ").append(format(size, subject, metric, metrics.get(metric)));
			}
			md.append(" |\n");
		}));
		md.append("\nRatios paired per repetition, median [min–max]:\n\n");
		md.append("| size | metric | ratio | median [min–max] | target | verdict |\n");
		md.append("|---:|---|---|---|---:|---|\n");
		List<List<String>> pairs = PAIRS.stream().filter(subjects::containsAll).toList();
		results.forEach((size, bySubject) -> {
			for (String metric : METRICS) {
				for (List<String> pair : pairs) {
					List<Double> top = bySubject.get(pair.get(0)).get(metric);
					List<Double> bottom = bySubject.get(pair.get(1)).get(metric);
					double[] ratios = new double[top.size()];
					for (int i = 0; i < ratios.length; i++) {
						ratios[i] = top.get(i) / bottom.get(i);
					}
					String name = pair.get(0) + "/" + pair.get(1);
					Summary.Stat stat = Summary.stat(size, name, metric, ratios);
					// the goal: a cold app synced in at most half the seed's time
					boolean goal = pair.get(0).startsWith("b") && pair.get(1).equals("s") && metric.equals("synced_ms");
					double target = goal ? 0.5 : Double.NaN;
					Summary.Ratio ratio = new Summary.Ratio(stat, target);
					md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s |%n", size, metric, name,
							Summary.format(stat), goal ? "≤ 0.5" : "", ratio.verdict()));
				}
			}
		});
		if (!subjects.contains("s")) {
			md.append("\n").append(this.seed.status()).append('\n');
		}
		this.skipped.forEach((line) -> md.append("\n").append(line).append('\n'));
		return md.toString();
	}

	private String jvmsDescription(List<String> subjects) {
		Map<Path, String> versions = new LinkedHashMap<>();
		for (String subject : subjects) {
			ColdStartJvm jvm = this.jvms.get(subject);
			if (jvm != null) {
				versions.computeIfAbsent(jvm.javaHome(),
						(home) -> "JDK " + ColdStartJvm.featureVersion(home) + " (" + home + ")");
			}
		}
		return String.join(", ", versions.values()) + "; default heap, the same class path of jars for all.";
	}

	private static String format(int size, String subject, String metric, List<Double> values) {
		return Summary
			.format(Summary.stat(size, subject, metric, values.stream().mapToDouble(Double::doubleValue).toArray()));
	}

}
