package dev.informer.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * Subject (g) of the per-process benchmark: the Go program under
 * {@code src/main/go/informer-bench} (client-go's {@code SharedInformerFactory} at the
 * version its {@code go.mod} pins, the project's Kubernetes), built by the run with
 * {@code go build} into {@code target/go}; the Go module proxy supplies the modules its
 * {@code go.sum} names on the first build. Without a Go toolchain the run says so and
 * reports the subject as SKIPPED.
 */
final class GoSubject {

	static final Path SOURCE = Path.of("src", "main", "go", "informer-bench");

	private final @Nullable Path binary;

	private final String status;

	private GoSubject(@Nullable Path binary, String status) {
		this.binary = binary;
		this.status = status;
	}

	/**
	 * Build the program.
	 * @param go the Go command ({@code go} on the PATH unless {@code --go=} names one)
	 * @param target the directory of the binary
	 * @return the build, or why there is none
	 */
	static GoSubject build(String go, Path target) {
		Path source = SOURCE.toAbsolutePath();
		if (!Files.isRegularFile(source.resolve("go.mod"))) {
			return new GoSubject(null,
					"SKIPPED: (g) no " + source.resolve("go.mod") + " (run from the benchmarks " + "directory)");
		}
		Path binary = target.toAbsolutePath().resolve("informer-bench");
		try {
			Files.createDirectories(target);
			// -trimpath as scripts/envtest.sh builds, so the compiled client-go packages
			// of its build are reused; the go.sum as committed; no toolchain download
			ProcessBuilder builder = new ProcessBuilder(go, "build", "-trimpath", "-mod=readonly", "-o",
					binary.toString(), ".")
				.directory(source.toFile())
				.redirectErrorStream(true);
			builder.environment().put("GOTOOLCHAIN", "local");
			Process process = builder.start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (!process.waitFor(30, TimeUnit.MINUTES) || process.exitValue() != 0) {
				process.destroyForcibly();
				return new GoSubject(null, "SKIPPED: (g) `" + go + " build` in " + source + " failed: " + output);
			}
			return new GoSubject(binary,
					"client-go v0.37.2 SharedInformerFactory, built by " + version(go) + " into " + binary);
		}
		catch (IOException ex) {
			return new GoSubject(null, "SKIPPED: (g) needs a Go toolchain to build " + source + ", and none runs as `"
					+ go + "` (" + ex.getMessage() + "); install Go 1.26 or later, or name it with --go=PATH");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return new GoSubject(null, "SKIPPED: (g) interrupted while building");
		}
	}

	private static String version(String go) {
		try {
			Process process = new ProcessBuilder(go, "version").redirectErrorStream(true).start();
			String version = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			process.waitFor();
			return version;
		}
		catch (IOException ex) {
			return go;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return go;
		}
	}

	boolean available() {
		return this.binary != null;
	}

	String status() {
		return this.status;
	}

	/**
	 * The command of one launch.
	 * @param namespace the namespace
	 * @param expected the objects in it
	 * @param json whether client-go asks for JSON instead of protobuf (its default)
	 * @param compression whether client-go asks for gzip (its default)
	 * @return the command
	 */
	List<String> command(String namespace, int expected, boolean json, boolean compression) {
		return command(namespace, expected, json, compression, false);
	}

	/**
	 * The command of one launch.
	 * @param namespace the namespace
	 * @param expected the objects in it
	 * @param json whether client-go asks for JSON instead of protobuf (its default)
	 * @param compression whether client-go asks for gzip (its default)
	 * @param start whether the informer starts at once ({@link StartBenchmark})
	 * @return the command
	 */
	List<String> command(String namespace, int expected, boolean json, boolean compression, boolean start) {
		if (this.binary == null) {
			throw new IllegalStateException(this.status);
		}
		List<String> command = new ArrayList<>(List.of(this.binary.toString()));
		if (start) {
			command.add("-start");
		}
		if (json) {
			command.add("-json");
		}
		if (!compression) {
			command.add("-disable-compression");
		}
		command.add(namespace);
		command.add(Integer.toString(expected));
		return command;
	}

}
