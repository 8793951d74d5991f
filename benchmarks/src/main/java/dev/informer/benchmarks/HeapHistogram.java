package dev.informer.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A class histogram of the live objects of another JVM ({@code jcmd PID
 * GC.class_histogram}, which collects the whole heap first), and the difference of two:
 * for each class, the bytes of its instances that the second has and the first had not,
 * never less than zero. Taken before the informer starts and after it synced, in the same
 * process, the difference is what the sync left on the heap: the cache, its objects and
 * whatever the client keeps beside them.
 */
final class HeapHistogram {

	private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");

	/** Class name to {instances, bytes}. */
	private final Map<String, long[]> classes;

	private HeapHistogram(Map<String, long[]> classes) {
		this.classes = classes;
	}

	/**
	 * Take the histogram of a JVM.
	 * @param javaHome the JDK whose {@code jcmd} to run
	 * @param pid the JVM
	 * @return the histogram
	 * @throws IOException when jcmd fails
	 * @throws InterruptedException when interrupted
	 */
	static HeapHistogram of(Path javaHome, long pid) throws IOException, InterruptedException {
		Process jcmd = new ProcessBuilder(javaHome.resolve("bin").resolve("jcmd").toString(), Long.toString(pid),
				"GC.class_histogram")
			.redirectErrorStream(true)
			.start();
		String output = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!jcmd.waitFor(5, TimeUnit.MINUTES) || jcmd.exitValue() != 0) {
			jcmd.destroyForcibly();
			throw new IOException("jcmd " + pid + " GC.class_histogram failed: " + output);
		}
		return parse(output);
	}

	static HeapHistogram parse(String output) {
		Map<String, long[]> classes = new LinkedHashMap<>();
		for (String line : output.split("\n")) {
			Matcher row = ROW.matcher(line);
			if (row.find()) {
				classes.merge(row.group(3), new long[] { Long.parseLong(row.group(1)), Long.parseLong(row.group(2)) },
						(a, b) -> new long[] { a[0] + b[0], a[1] + b[1] });
			}
		}
		if (classes.isEmpty()) {
			throw new IllegalArgumentException("not a class histogram: " + output);
		}
		return new HeapHistogram(classes);
	}

	/**
	 * What this histogram holds beyond an earlier one, per group of classes.
	 * @param before the earlier histogram of the same process
	 * @return group (see {@link #group(String)}) to bytes, and {@code total}
	 */
	Map<String, Long> growthSince(HeapHistogram before) {
		Map<String, Long> groups = new LinkedHashMap<>();
		groups.put("total", 0L);
		this.classes.forEach((name, now) -> {
			long[] earlier = before.classes.getOrDefault(name, new long[2]);
			long bytes = Math.max(0, now[1] - earlier[1]);
			if (bytes > 0) {
				groups.merge(group(name), bytes, Long::sum);
				groups.merge("total", bytes, Long::sum);
			}
		});
		return groups;
	}

	/**
	 * The group a class is reported in.
	 * @param name the class name as the histogram prints it
	 * @return {@code model} (fabric8's Kubernetes model), {@code strings} ({@code String}
	 * and {@code byte[]}), {@code collections} ({@code java.util}, arrays of objects),
	 * {@code starter} ({@code dev.informer}), {@code fabric8-client} (the client and its
	 * informers) or {@code other}
	 */
	static String group(String name) {
		if (name.startsWith("io.fabric8.kubernetes.api.model.")) {
			return "model";
		}
		if (name.equals("java.lang.String") || name.equals("[B")) {
			return "strings";
		}
		if (name.startsWith("java.util.") || name.equals("[Ljava.lang.Object;") || name.startsWith("[Ljava.util.")) {
			return "collections";
		}
		if (name.startsWith("dev.informer.")) {
			return "starter";
		}
		if (name.startsWith("io.fabric8.")) {
			return "fabric8-client";
		}
		return "other";
	}

	/**
	 * Instances of a class.
	 * @param name the class name
	 * @return the count
	 */
	long instances(String name) {
		return this.classes.getOrDefault(name, new long[2])[0];
	}

}
