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

/**
 * Cold start: a fresh process per repetition, from its launch to its informer synced, on
 * the same server and objects as the other benchmarks. Subjects: (s) the Python client's
 * informer ({@link SeedPython}), (a) raw fabric8 and (b) the starter in a new JVM
 * ({@link ColdStartProcesses}). Each process reports its own CPU time at synced. Writes
 * {@code cold-start.md}.
 */
final class ColdStartBenchmark {

	static final int REPETITIONS = 3;

	private static final List<String> SUBJECTS = List.of("s", "a", "b");

	private static final List<String> METRICS = List.of("synced_ms", "time_to_sync_ms", "cpu_ms");

	private final ApiServer server;

	private final SeedPython seed;

	private final Path kubeConfig;

	private ColdStartBenchmark(ApiServer server, SeedPython seed, Path kubeConfig) {
		this.server = server;
		this.seed = seed;
		this.kubeConfig = kubeConfig;
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
			Path kubeConfig = Files.createTempFile("bench-kubeconfig", ".yaml");
			try {
				Files.writeString(kubeConfig, yaml);
				String markdown = new ColdStartBenchmark(server, seed, kubeConfig).measure(options.sizes(),
						server.label());
				Files.writeString(report, markdown);
				return markdown;
			}
			finally {
				Files.deleteIfExists(kubeConfig);
			}
		}
	}

	private String measure(List<Integer> sizes, String serverLabel) throws Exception {
		List<String> subjects = SUBJECTS.stream().filter((id) -> !id.equals("s") || this.seed.available()).toList();
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
		// one discarded launch each: Python's bytecode cache, the OS's file cache
		for (String subject : subjects) {
			launch(subject, sizes.get(0));
		}
		for (int size : sizes) {
			Map<String, Map<String, List<Double>>> bySubject = new LinkedHashMap<>();
			for (int repetition = 0; repetition < REPETITIONS; repetition++) {
				for (int i = 0; i < subjects.size(); i++) {
					// rotated every repetition, so that no subject always follows another
					String subject = subjects.get((i + repetition) % subjects.size());
					Map<String, Double> sample = launch(subject, size);
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

	private Map<String, Double> launch(String subject, int size) throws Exception {
		String namespace = Workload.namespace(size);
		Instant now = Instant.now();
		String launchedAt = String.format(Locale.ROOT, "%d.%06d", now.getEpochSecond(), now.getNano() / 1000);
		List<String> command = switch (subject) {
			case "s" -> this.seed.command(namespace, size, launchedAt);
			case "a" -> java(ColdStartProcesses.RawFabric8.class, namespace, size, launchedAt);
			case "b" -> java(ColdStartProcesses.Starter.class, namespace, size, launchedAt);
			default -> throw new IllegalArgumentException(subject);
		};
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
			Files.deleteIfExists(output);
		}
	}

	private List<String> java(Class<?> main, String namespace, int size, String launchedAt) {
		return new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Dkubeconfig=" + this.kubeConfig, "-cp", System.getProperty("java.class.path"), main.getName(),
				namespace, Integer.toString(size), launchedAt));
	}

	static Map<String, Double> parse(String output) {
		Map<String, Double> values = new LinkedHashMap<>();
		output.lines()
			.filter((line) -> line.startsWith(ColdStartProcesses.PREFIX))
			.reduce((first, second) -> second)
			.ifPresent((line) -> {
				for (String pair : line.substring(ColdStartProcesses.PREFIX.length()).trim().split("\\s+")) {
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
			});
		return values;
	}

	private String table(Map<Integer, Map<String, Map<String, List<Double>>>> results, List<String> subjects,
			String serverLabel) {
		StringBuilder md = new StringBuilder();
		md.append(String.format(Locale.ROOT,
				"Cold start on %s: a fresh process per repetition, %d repetitions (subject order rotated), "
						+ "after one discarded launch of each; median [min–max].%n"
						+ "(s) %s; (a) raw fabric8 %s in a new JVM; (b) the starter in a new JVM "
						+ "(Spring Boot application, InformerAutoConfiguration, one informer, one no-op listener).%n"
						+ "launch → synced: from just before the process is launched to its informer synced "
						+ "(for (b): InformerSyncedEvent); informer → synced: from the informer's start "
						+ "(for (b): InformerSyncedEvent.getTimeToSync()); CPU: the process's CPU time at synced.%n%n",
				serverLabel, REPETITIONS, this.seed.status(), io.fabric8.kubernetes.client.Version.clientVersion()));
		md.append("| size | subject | launch → synced ms | informer → synced ms | process CPU ms |\n");
		md.append("|---:|---|---:|---:|---:|\n");
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
		List<String[]> pairs = new ArrayList<>();
		if (subjects.contains("s")) {
			pairs.add(new String[] { "b", "s" });
			pairs.add(new String[] { "a", "s" });
		}
		pairs.add(new String[] { "b", "a" });
		results.forEach((size, bySubject) -> {
			for (String metric : METRICS) {
				for (String[] pair : pairs) {
					List<Double> top = bySubject.get(pair[0]).get(metric);
					List<Double> bottom = bySubject.get(pair[1]).get(metric);
					double[] ratios = new double[top.size()];
					for (int i = 0; i < ratios.length; i++) {
						ratios[i] = top.get(i) / bottom.get(i);
					}
					String name = pair[0] + "/" + pair[1];
					Summary.Stat stat = Summary.stat(size, name, metric, ratios);
					// the goal: a cold app synced in at most half the seed's time
					double target = (name.equals("b/s") && metric.equals("synced_ms")) ? 0.5 : Double.NaN;
					Summary.Ratio ratio = new Summary.Ratio(stat, target);
					md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s |%n", size, metric, name,
							Summary.format(stat), Double.isNaN(target) ? "" : "≤ 0.5", ratio.verdict()));
				}
			}
		});
		if (!subjects.contains("s")) {
			md.append("\n").append(this.seed.status()).append('\n');
		}
		return md.toString();
	}

	private static String format(int size, String subject, String metric, List<Double> values) {
		return Summary
			.format(Summary.stat(size, subject, metric, values.stream().mapToDouble(Double::doubleValue).toArray()));
	}

}
