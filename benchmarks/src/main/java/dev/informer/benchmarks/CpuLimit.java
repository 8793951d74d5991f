package dev.informer.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The CPU a launch of the start benchmark gets ({@code --limits=}): the machine's cores,
 * one core ({@code taskset}), or half a core as a pod's {@code limits.cpu: 500m} gives it
 * (a CFS quota of 50 ms per 100 ms period in a cgroup of its own: {@code cpu.max} under
 * cgroup v2 when the {@code cpu} controller is delegated there, else
 * {@code cpu.cfs_quota_us} under cgroup v1's {@code cpu} controller). A JVM sees either
 * limit as one available processor, as in a pod. When the machine allows no quota the
 * condition is skipped and the report says why, with the error.
 */
final class CpuLimit implements AutoCloseable {

	/** The conditions, by id. */
	static final List<String> IDS = List.of("none", "1cpu", "half");

	private final String id;

	private final List<String> prefix;

	private final @Nullable Path cgroup;

	private final @Nullable String skipped;

	private final String description;

	private CpuLimit(String id, List<String> prefix, @Nullable Path cgroup, @Nullable String skipped,
			String description) {
		this.id = id;
		this.prefix = prefix;
		this.cgroup = cgroup;
		this.skipped = skipped;
		this.description = description;
	}

	/**
	 * Set a condition up.
	 * @param id one of {@link #IDS}
	 * @return the condition, or one that says why it cannot run
	 */
	static CpuLimit of(String id) {
		return switch (id) {
			case "none" -> new CpuLimit(id, List.of(), null, null, "no limit: the machine's "
					+ Runtime.getRuntime().availableProcessors() + " CPUs, shared with the API server");
			case "1cpu" -> pinned();
			case "half" -> halfCore();
			default -> throw new IllegalArgumentException("No CPU limit '" + id + "'; there are " + IDS);
		};
	}

	private static CpuLimit pinned() {
		int cpu = Runtime.getRuntime().availableProcessors() - 1;
		try {
			Process process = new ProcessBuilder("taskset", "-c", Integer.toString(cpu), "true")
				.redirectErrorStream(true)
				.start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (process.waitFor() != 0) {
				return new CpuLimit("1cpu", List.of(), null, "SKIPPED: taskset -c " + cpu + " failed: " + output, "");
			}
		}
		catch (IOException ex) {
			return new CpuLimit("1cpu", List.of(), null, "SKIPPED: no taskset (" + ex.getMessage() + ")", "");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return new CpuLimit("1cpu", List.of(), null, "SKIPPED: interrupted", "");
		}
		return new CpuLimit("1cpu", List.of("taskset", "-c", Integer.toString(cpu)), null, null,
				"one core: taskset -c " + cpu + " (the API server keeps both)");
	}

	private static CpuLimit halfCore() {
		String name = "informer-bench-" + ProcessHandle.current().pid();
		List<String> errors = new ArrayList<>();
		Path v2 = Path.of("/sys/fs/cgroup");
		try {
			if (Files.readString(v2.resolve("cgroup.controllers")).contains("cpu")) {
				Path group = v2.resolve(name);
				Files.createDirectories(group);
				Files.writeString(group.resolve("cpu.max"), "50000 100000");
				return inGroup(group, "cgroup v2: " + group + "/cpu.max = 50000 100000");
			}
			errors.add("cgroup v2: no cpu controller in " + v2.resolve("cgroup.controllers"));
		}
		catch (IOException | RuntimeException ex) {
			errors.add("cgroup v2 at " + v2 + ": " + ex);
		}
		Path v1 = Path.of("/sys/fs/cgroup/cpu");
		try {
			Path group = v1.resolve(name);
			Files.createDirectories(group);
			Files.writeString(group.resolve("cpu.cfs_period_us"), "100000");
			Files.writeString(group.resolve("cpu.cfs_quota_us"), "50000");
			return inGroup(group, "cgroup v1: " + group + "/cpu.cfs_quota_us = 50000 of cpu.cfs_period_us = 100000");
		}
		catch (IOException | RuntimeException ex) {
			errors.add("cgroup v1 at " + v1 + ": " + ex);
		}
		return new CpuLimit("half", List.of(), null, "SKIPPED: no CPU quota can be set here: " + errors, "");
	}

	private static CpuLimit inGroup(Path group, String how) {
		// the shell moves itself into the group, then becomes the subject
		return new CpuLimit("half",
				List.of("sh", "-c", "echo $$ > " + group.resolve("cgroup.procs") + " && exec \"$@\"", "sh"), group,
				null, "half a core, as a pod's limits.cpu: 500m: " + how);
	}

	String id() {
		return this.id;
	}

	/**
	 * Why this condition cannot run here, or {@code null}.
	 * @return the reason
	 */
	@Nullable String skipped() {
		return this.skipped;
	}

	String description() {
		return this.description;
	}

	/**
	 * The command of a launch under this condition.
	 * @param command the subject's command
	 * @return the command that runs it under the limit
	 */
	List<String> wrap(List<String> command) {
		List<String> wrapped = new ArrayList<>(this.prefix);
		wrapped.addAll(command);
		return wrapped;
	}

	/**
	 * A subject id under this condition: {@code b-17} as it is, {@code b-17@1cpu},
	 * {@code b-17@half}.
	 * @param subject the subject
	 * @return the id in the report
	 */
	String label(String subject) {
		return this.id.equals("none") ? subject : subject + "@" + this.id;
	}

	@Override
	public void close() {
		if (this.cgroup != null) {
			try {
				Files.deleteIfExists(this.cgroup);
			}
			catch (IOException ex) {
				// a process still in it: the group stays until the machine restarts
			}
		}
	}

}
