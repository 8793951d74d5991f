package dev.informer.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one run does. {@code --smoke}: seconds, tiny workload, mock server, JMH
 * in-process; {@code --full}: the real server when its binaries exist, 1k/10k/50k
 * objects, two warm-up and five measured repetitions and a forked JMH. Any value can be
 * overridden, for example {@code --sizes=1000,10000 --repetitions=3}.
 *
 * @param smoke whether this is the smoke run
 * @param mock whether to use the mock server even when binaries exist
 * @param sizes the initial-sync workloads
 * @param streamSize the workload whose namespace gets the update stream and latency
 * writes
 * @param warmups discarded repetitions
 * @param repetitions measured repetitions
 * @param writers writer threads for population and the update stream
 * @param streamEvents updates in the sustained stream
 * @param latencyEvents paced updates for latency
 * @param latencyRate paced updates per second
 * @param syncTimeout how long one initial sync may take
 * @param jmh whether to run the JMH publish benchmark
 * @param gcRounds full collections before reading the used heap
 * @param output directory for results.json, results.csv and results.png
 * @param subjects the ids of the subjects to run; empty for the default set
 * @param coldStart whether to run only the cold-start benchmark ({@code --cold-start})
 * @param jdk25 the JDK of the cold-start benchmark's JDK 25 subjects ({@code --jdk25=})
 * @param jvmOptions options added to every JVM the cold-start benchmark launches, for
 * profiling ({@code --jvm-option=}, repeatable); with any, each process's output is kept
 */
record Options(boolean smoke, boolean mock, List<Integer> sizes, int streamSize, int warmups, int repetitions,
		int writers, int streamEvents, int latencyEvents, int latencyRate, Duration syncTimeout, boolean jmh,
		int gcRounds, Path output, List<String> subjects, boolean coldStart, Path jdk25, List<String> jvmOptions) {

	static Options parse(String... args) {
		boolean smoke = Arrays.asList(args).contains("--smoke");
		boolean mock = smoke;
		List<Integer> sizes = smoke ? List.of(100) : List.of(1_000, 10_000, 50_000);
		int warmups = smoke ? 0 : 2;
		int repetitions = smoke ? 2 : 5;
		int writers = 4;
		int streamEvents = smoke ? 100 : 5_000;
		int latencyEvents = smoke ? 20 : 300;
		int latencyRate = smoke ? 200 : 100;
		boolean jmh = true;
		Path output = Path.of("target");
		List<String> subjects = List.of();
		boolean coldStart = false;
		Path jdk25 = ColdStartBenchmark.DEFAULT_JDK25;
		List<String> jvmOptions = new ArrayList<>();
		for (String arg : args) {
			String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : "";
			if (arg.startsWith("--sizes=")) {
				sizes = Arrays.stream(value.split(",")).map(String::trim).map(Integer::valueOf).toList();
			}
			else if (arg.startsWith("--repetitions=")) {
				repetitions = Integer.parseInt(value);
			}
			else if (arg.startsWith("--warmups=")) {
				warmups = Integer.parseInt(value);
			}
			else if (arg.startsWith("--stream-events=")) {
				streamEvents = Integer.parseInt(value);
			}
			else if (arg.startsWith("--latency-events=")) {
				latencyEvents = Integer.parseInt(value);
			}
			else if (arg.startsWith("--subjects=")) {
				subjects = Arrays.stream(value.split(",")).map(String::trim).toList();
			}
			else if (arg.startsWith("--output=")) {
				output = Path.of(value);
			}
			else if (arg.startsWith("--jvm-option=")) {
				jvmOptions.add(value);
			}
			else if (arg.startsWith("--jdk25=")) {
				jdk25 = Path.of(value);
			}
			else if (arg.equals("--mock")) {
				mock = true;
			}
			else if (arg.equals("--cold-start")) {
				coldStart = true;
			}
			else if (arg.equals("--no-jmh")) {
				jmh = false;
			}
			else if (!arg.equals("--smoke") && !arg.equals("--full")) {
				throw new IllegalArgumentException("Unknown argument '" + arg + "'; use --smoke or --full, "
						+ "--sizes=1000,10000, --repetitions=N, --warmups=N, --stream-events=N, "
						+ "--latency-events=N, --subjects=a,b,b-meta,b-wl, --output=DIR, --mock, --no-jmh, --cold-start, --jdk25=PATH, --jvm-option=OPTION");
			}
		}
		return new Options(smoke, mock, sizes, sizes.get(0), warmups, repetitions, writers, streamEvents, latencyEvents,
				latencyRate, Duration.ofMinutes(smoke ? 1 : 5), jmh, smoke ? 2 : 4, output, subjects, coldStart, jdk25,
				List.copyOf(jvmOptions));
	}

}
