package dev.informer.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs every benchmark and prints the table; writes results.json, results.csv,
 * results.png and results.md to the output directory ({@code target} by default). See
 * {@link Options}.
 */
public final class BenchmarkMain {

	private BenchmarkMain() {
	}

	public static void main(String[] args) throws Exception {
		System.setProperty("java.awt.headless", "true");
		boolean replicas = !Arrays.asList(args).contains("--no-replicas");
		args = Arrays.stream(args).filter((arg) -> !arg.equals("--no-replicas")).toArray(String[]::new);
		if (Arrays.asList(args).contains("--pods-only")) {
			System.out.println(PodBenchmark.run(intArg(args, "--pods", 5000), intArg(args, "--nodes", 100),
					intArg(args, "--updates", 20_000), intArg(args, "--seed", 20261202)));
			System.exit(0);
		}
		if (Arrays.asList(args).contains("--replicas-only")) {
			Options options = Options
				.parse(Arrays.stream(args).filter((arg) -> !arg.equals("--replicas-only")).toArray(String[]::new));
			System.out.println(ReplicaBenchmark.run(options));
			System.exit(0);
		}
		Options options = Options.parse(args);
		if (options.perProcess().compression()) {
			System.out.println(CompressionBenchmark.run(options));
			System.exit(0);
		}
		if (options.start().enabled()) {
			System.out.println(StartBenchmark.run(options));
			System.out.println("Written: " + options.output().toAbsolutePath().resolve("start.{md,json,csv}"));
			System.exit(0);
		}
		if (options.perProcess().enabled()) {
			System.out.println(PerProcessBenchmark.run(options));
			System.out.println("Written: " + options.output().toAbsolutePath().resolve("per-process.{md,json,csv}"));
			System.exit(0);
		}
		if (options.coldStart()) {
			System.out.println(ColdStartBenchmark.run(options));
			System.out.println("Written: " + options.output().toAbsolutePath().resolve("cold-start.md"));
			System.exit(0);
		}
		Report report = run(options, replicas);
		System.out.println();
		System.out.println(report.table());
		System.out.println("Written: " + options.output().toAbsolutePath().resolve("results.{json,csv,png,md}"));
		// fabric8 and the API server leave non-daemon threads behind
		System.exit(0);
	}

	private static int intArg(String[] args, String name, int defaultValue) {
		List<String> list = Arrays.asList(args);
		int index = list.indexOf(name);
		return (index >= 0 && index + 1 < list.size()) ? Integer.parseInt(list.get(index + 1)) : defaultValue;
	}

	static Report run(Options options) throws Exception {
		return run(options, true);
	}

	/**
	 * Run every benchmark of the options.
	 * @param options what to run
	 * @param replicas whether to run the replica benchmark too ({@code --no-replicas}
	 * leaves it out: its numbers are in docs/replicas.md and take minutes to remake)
	 * @return the report
	 * @throws Exception on failure
	 */
	static Report run(Options options, boolean replicas) throws Exception {
		List<Subject> subjects = List.of(new RawFabric8Subject(), StarterSubject.minimal(),
				StarterSubject.minimalKeepingManagedFields(), StarterSubject.metadataOnly(), StarterSubject.full());
		if (!options.subjects().isEmpty()) {
			// the watch-list subject only on request:
			// fabric8's mock server does not serve it
			subjects = Stream.concat(subjects.stream(), Stream.of(StarterSubject.watchList()))
				.filter((subject) -> options.subjects().contains(subject.id()))
				.toList();
		}
		Map<String, String> context = new LinkedHashMap<>();
		context.put("mode", options.smoke() ? "SMOKE (tiny workload; numbers prove the harness only)" : "full");
		Summary summary;
		try (ApiServer server = ApiServer.start(options.mock())) {
			Harness.log("API server: %s", server.label());
			context.put("server", server.label());
			context.put("machine", machine());
			context.put("jvm",
					System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + " "
							+ String.join(" ",
									ManagementFactory.getRuntimeMXBean()
										.getInputArguments()
										.stream()
										.filter((arg) -> arg.startsWith("-X"))
										.toList()));
			context.put("workload",
					"sizes " + options.sizes() + " ConfigMaps of ~1 KiB; stream " + options.streamEvents()
							+ " updates by " + options.writers() + " writers; latency " + options.latencyEvents()
							+ " updates at " + options.latencyRate() + "/s; " + options.warmups() + " warm-up + "
							+ options.repetitions()
							+ " repetitions, subject order rotated and reversed between repetitions");
			summary = new Summary(new Harness(options, server, subjects).run());
		}
		if (!options.mock()) {
			if (replicas) {
				// replicas sharing a collection, on a server with shard selectors on
				Harness.log("replicas: %n%s", ReplicaBenchmark.run(options));
			}
			// fresh processes from launch to synced, every cold-start
			// subject, the seed (s) among them; 10k objects and up
			List<Integer> coldSizes = options.sizes().stream().filter((size) -> size >= 10_000).toList();
			if (!coldSizes.isEmpty()) {
				Harness.log("cold start: %n%s", ColdStartBenchmark.run(withSizes(options, coldSizes)));
			}
		}
		List<PublishJmh.Score> jmh = options.jmh() ? PublishJmh.run(options.smoke()) : List.of();
		Report report = new Report(context, subjects, summary, jmh);
		report.write(options.output());
		return report;
	}

	/** The cold-start run of a full run: its sizes, and every cold-start subject. */
	private static Options withSizes(Options options, List<Integer> sizes) {
		return new Options(options.smoke(), options.mock(), sizes, options.streamSize(), options.warmups(),
				options.repetitions(), options.writers(), options.streamEvents(), options.latencyEvents(),
				options.latencyRate(), options.syncTimeout(), options.jmh(), options.gcRounds(), options.output(),
				List.of(), true, options.jdk25(), options.jvmOptions(), options.perProcess(), options.start());
	}

	private static String machine() {
		String model = "unknown CPU";
		try {
			model = Files.readAllLines(Path.of("/proc/cpuinfo"))
				.stream()
				.filter((line) -> line.startsWith("model name"))
				.map((line) -> line.substring(line.indexOf(':') + 1).trim())
				.findFirst()
				.orElse(model);
		}
		catch (Exception ex) {
			// not Linux
		}
		long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getTotalMemorySize();
		return Runtime.getRuntime().availableProcessors() + " CPUs, " + model + ", " + (memory >> 30) + " GiB RAM, "
				+ System.getProperty("os.name") + " " + System.getProperty("os.arch");
	}

}
