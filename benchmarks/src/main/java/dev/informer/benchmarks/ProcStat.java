package dev.informer.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What Linux says another process has used, read from outside it through {@code /proc}:
 * the CPU time of all its threads (utime + stime of {@code /proc/<pid>/stat}, which keeps
 * the time of threads that have ended, in clock ticks of 10 ms), the CPU time of each of
 * its live threads by name ({@code /proc/<pid>/task/<tid>/stat}: GC and JIT threads
 * included, which a Java profiler does not see), and the voluntary context switches of
 * its live threads (each a thread going to sleep to wait, so each a later wake-up; summed
 * over {@code /proc/<pid>/task/<tid>/status}).
 */
final class ProcStat {

	/** Clock ticks per second of {@code /proc/<pid>/stat}'s times. */
	static final long TICKS_PER_SECOND = ticksPerSecond();

	private ProcStat() {
	}

	/**
	 * One reading.
	 *
	 * @param cpuNanos user and system CPU time of the whole process
	 * @param voluntarySwitches voluntary context switches of its live threads
	 * @param threads its live threads
	 * @param threadCpuNanos the CPU time of its live threads by {@link #group(String)
	 * group of thread names}
	 */
	record Sample(long cpuNanos, long voluntarySwitches, int threads, Map<String, Long> threadCpuNanos) {

		static final Sample NONE = new Sample(-1, -1, -1, Map.of());

		Sample(long cpuNanos, long voluntarySwitches, int threads) {
			this(cpuNanos, voluntarySwitches, threads, Map.of());
		}

		/**
		 * The CPU time each group of threads used since an earlier reading, of the
		 * threads alive at both.
		 * @param before the earlier reading
		 * @return group to nanoseconds, largest first
		 */
		Map<String, Long> threadCpuSince(Sample before) {
			Map<String, Long> since = new LinkedHashMap<>();
			this.threadCpuNanos.entrySet()
				.stream()
				.map((e) -> Map.entry(e.getKey(), e.getValue() - before.threadCpuNanos.getOrDefault(e.getKey(), 0L)))
				.filter((e) -> e.getValue() > 0)
				.sorted((x, y) -> Long.compare(y.getValue(), x.getValue()))
				.forEach((e) -> since.put(e.getKey(), e.getValue()));
			return since;
		}

		boolean valid() {
			return this.cpuNanos >= 0;
		}

	}

	/**
	 * Read a process.
	 * @param pid the process
	 * @return the reading, {@link Sample#NONE} when it cannot be read (the process ended,
	 * or no {@code /proc})
	 */
	static Sample read(long pid) {
		try {
			String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
			// the command name is in parentheses and may contain spaces
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			// fields from the state (3rd of stat); utime and stime are stat's 14th and
			// 15th
			long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
			long switches = 0;
			int threads = 0;
			Map<String, Long> byGroup = new HashMap<>();
			try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
				for (Path task : (Iterable<Path>) tasks::iterator) {
					switches += voluntarySwitches(task.resolve("status"));
					threads++;
					threadCpu(task, byGroup);
				}
			}
			return new Sample(ticks * 1_000_000_000L / TICKS_PER_SECOND, switches, threads, byGroup);
		}
		catch (IOException | RuntimeException ex) {
			return Sample.NONE;
		}
	}

	/** Add a thread's CPU time to its group's. */
	private static void threadCpu(Path task, Map<String, Long> byGroup) {
		try {
			String stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
			String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
			byGroup.merge(group(name), ticks * 1_000_000_000L / TICKS_PER_SECOND, Long::sum);
		}
		catch (IOException | RuntimeException ex) {
			// the thread ended between the listing and the read
		}
	}

	/**
	 * The group of a thread's name (Linux keeps the first 15 characters): digits become
	 * {@code N}, so that the threads of one pool are one group, except in the names of
	 * the JIT compilers ({@code C1 CompilerThre}, {@code C2 CompilerThre}) and G1's
	 * threads; fabric8's executor threads ({@code -<hash>-pool-<n>-thread-<n>}, cut at
	 * different lengths) are one group.
	 * @param name the name
	 * @return the group
	 */
	static String group(String name) {
		String kept = "";
		String rest = name;
		if (name.matches("^[CG][12] .*")) {
			kept = name.substring(0, 3);
			rest = name.substring(3);
		}
		String group = kept + rest.replaceAll("\\d+", "N");
		return group.startsWith("-N-poo") ? "-N-pool-N-thread-N" : group;
	}

	private static long voluntarySwitches(Path status) {
		try {
			for (String line : Files.readAllLines(status, StandardCharsets.US_ASCII)) {
				if (line.startsWith("voluntary_ctxt_switches:")) {
					return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// the thread ended between the listing and the read
		}
		return 0;
	}

	/**
	 * The CPU time of the API server's processes (kube-apiserver and etcd) if this JVM
	 * started them, else -1.
	 * @return nanoseconds
	 */
	static long apiServerCpuNanos() {
		long[] total = { 0 };
		boolean[] any = { false };
		ProcessHandle.current().descendants().forEach((process) -> {
			String command = process.info().command().orElse("");
			if (command.endsWith("/kube-apiserver") || command.endsWith("/etcd")) {
				Sample sample = read(process.pid());
				if (sample.valid()) {
					total[0] += sample.cpuNanos();
					any[0] = true;
				}
			}
		});
		return any[0] ? total[0] : -1;
	}

	private static long ticksPerSecond() {
		try {
			Process process = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
			String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
			process.waitFor();
			return Long.parseLong(out);
		}
		catch (IOException | RuntimeException ex) {
			return 100;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return 100;
		}
	}

}
