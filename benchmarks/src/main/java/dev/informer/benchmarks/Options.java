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
 * @param gcRounds full collections before each subject starts
 * @param output directory for results.json, results.csv and results.png
 * @param subjects the ids of the subjects to run; empty for the default set
 * @param coldStart whether to run only the cold-start benchmark ({@code --cold-start})
 * @param jdk25 the JDK of the cold-start benchmark's JDK 25 subjects ({@code --jdk25=})
 * @param jvmOptions options added to every JVM the cold-start benchmark launches, for
 * profiling ({@code --jvm-option=}, repeatable); with any, each process's output is kept
 * @param perProcess the settings of the per-process benchmark ({@code --per-process})
 * @param start the settings of the start benchmark ({@code --start})
 */
record Options(boolean smoke, boolean mock, List<Integer> sizes, int streamSize, int warmups, int repetitions,
		int writers, int streamEvents, int latencyEvents, int latencyRate, Duration syncTimeout, boolean jmh,
		int gcRounds, Path output, List<String> subjects, boolean coldStart, Path jdk25, List<String> jvmOptions,
		PerProcess perProcess, Start start) {

	/**
	 * The settings of the start benchmark ({@link StartBenchmark}); its size (the first
	 * of {@code --sizes=}), repetitions, discarded repetitions, subjects, stream
	 * subjects, stream events and rate are the run's.
	 *
	 * @param enabled whether to run it, alone ({@code --start})
	 * @param limits the CPU limits, of {@link CpuLimit#IDS} ({@code --limits=none,1cpu})
	 */
	record Start(boolean enabled, List<String> limits) {

	}

	/**
	 * The settings of the per-process benchmark ({@link PerProcessBenchmark}); its sizes,
	 * repetitions, discarded repetitions ({@code --warmups=}), measured stream events
	 * ({@code --stream-events=}) and subjects ({@code --subjects=}) are the run's.
	 *
	 * @param enabled whether to run it, alone ({@code --per-process})
	 * @param streamWarmup updates written before the measured ones
	 * ({@code --stream-warmup=})
	 * @param streamRate updates per second the writer issues ({@code --stream-rate=})
	 * @param streamSubjects the subjects that watch the stream at the same time
	 * ({@code --stream-subjects=}; empty for the default)
	 * @param profile subjects whose JVMs record a flight recording of every launch
	 * ({@code --profile=a,b})
	 * @param go the Go command that builds subject (g) ({@code --go=})
	 * @param compression whether to run the compression benchmark instead
	 * ({@code --compression})
	 * @param streamOnly whether to leave out the syncs ({@code --stream-only})
	 */
	record PerProcess(boolean enabled, int streamWarmup, int streamRate, List<String> streamSubjects,
			List<String> profile, String go, boolean compression, boolean streamOnly) {

	}

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
		boolean perProcess = Arrays.asList(args).contains("--per-process");
		boolean compression = Arrays.asList(args).contains("--compression");
		boolean streamOnly = Arrays.asList(args).contains("--stream-only");
		boolean start = Arrays.asList(args).contains("--start");
		List<String> limits = CpuLimit.IDS;
		if (perProcess || compression) {
			// a fresh process per measurement: fewer, larger sizes; one discarded launch;
			// the real server when it is there, even in the smoke run (--mock to force)
			mock = false;
			sizes = smoke ? List.of(50) : List.of(10_000, 50_000);
			warmups = smoke ? 0 : 1;
			repetitions = smoke ? 1 : 5;
			streamEvents = smoke ? 100 : 10_000;
		}
		if (start) {
			// launches: one size; the first 15,000 events after the sync
			mock = false;
			sizes = smoke ? List.of(50) : List.of(10_000);
			warmups = smoke ? 0 : 1;
			repetitions = smoke ? 1 : 5;
			streamEvents = smoke ? 100 : 15_000;
		}
		// 2,000 left the JVMs' JIT compilers with a third to half of their CPU per event
		int streamWarmup = smoke ? 20 : 20_000;
		int streamRate = smoke ? 200 : 500;
		List<String> streamSubjects = List.of();
		List<String> profile = List.of();
		String go = "go";
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
			else if (arg.startsWith("--stream-warmup=")) {
				streamWarmup = Integer.parseInt(value);
			}
			else if (arg.startsWith("--stream-rate=")) {
				streamRate = Integer.parseInt(value);
			}
			else if (arg.startsWith("--stream-subjects=")) {
				streamSubjects = Arrays.stream(value.split(",")).map(String::trim).toList();
			}
			else if (arg.startsWith("--profile=")) {
				profile = Arrays.stream(value.split(",")).map(String::trim).toList();
			}
			else if (arg.startsWith("--limits=")) {
				limits = Arrays.stream(value.split(",")).map(String::trim).toList();
			}
			else if (arg.startsWith("--go=")) {
				go = value;
			}
			else if (arg.equals("--per-process") || arg.equals("--compression") || arg.equals("--stream-only")
					|| arg.equals("--start")) {
				// read above
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
						+ "--latency-events=N, --subjects=a,b,b-meta,b-wl, --output=DIR, --mock, --no-jmh, --cold-start, --jdk25=PATH, --jvm-option=OPTION, "
						+ "--per-process, --stream-warmup=N, --stream-rate=N, --stream-subjects=a,b, --stream-only, --profile=a,b, "
						+ "--go=PATH, --compression, --start, --limits=none,1cpu,half");
			}
		}
		return new Options(smoke, mock, sizes, sizes.get(0), warmups, repetitions, writers, streamEvents, latencyEvents,
				latencyRate, Duration.ofMinutes(smoke ? 1 : 5), jmh, smoke ? 2 : 4, output, subjects, coldStart, jdk25,
				List.copyOf(jvmOptions), new PerProcess(perProcess, streamWarmup, streamRate, streamSubjects, profile,
						go, compression, streamOnly),
				new Start(start, limits));
	}

}
