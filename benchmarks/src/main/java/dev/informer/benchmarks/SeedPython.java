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
 * The seed, subject (s): the Python client's informer, installed by the benchmark run
 * from PyPI into a virtual environment under {@code target}, at a pinned version. When it
 * cannot be installed (no Python, no network) the run says why and goes on without it.
 */
final class SeedPython {

	/** The pinned PyPI package of the Python client. */
	static final String PACKAGE_VERSION = "37.0.2";

	private static final Path SCRIPT = Path.of("src", "main", "python", "seed_informer.py");

	private final @Nullable Path python;

	private final String status;

	private SeedPython(@Nullable Path python, String status) {
		this.python = python;
		this.status = status;
	}

	/**
	 * Install the client into {@code venv} unless it is there at the pinned version.
	 * @param venv the virtual environment's directory
	 * @return the installation, or why there is none
	 */
	static SeedPython install(Path venv) {
		Path python = venv.resolve("bin").resolve("python");
		Path script = SCRIPT.toAbsolutePath();
		if (!Files.isRegularFile(script)) {
			return new SeedPython(null, "SKIPPED: no " + script + " (run from the benchmarks directory)");
		}
		try {
			if (!installed(python)) {
				Harness.log("seed (s): installing kubernetes==%s from PyPI into %s", PACKAGE_VERSION, venv);
				run(List.of("python3", "-m", "venv", venv.toString()), "python3 -m venv");
				run(List.of(python.toString(), "-m", "pip", "install", "-q", "--disable-pip-version-check",
						"kubernetes==" + PACKAGE_VERSION), "pip install kubernetes==" + PACKAGE_VERSION);
				if (!installed(python)) {
					throw new IOException("kubernetes " + PACKAGE_VERSION + " not importable after pip install");
				}
			}
			return new SeedPython(python, "Python client kubernetes==" + PACKAGE_VERSION + " (PyPI) in " + venv);
		}
		catch (IOException | InterruptedException ex) {
			return new SeedPython(null, "SKIPPED: the Python client could not be installed (" + ex.getMessage()
					+ "); the cold-start rows of (s) and the ratios to it are missing");
		}
	}

	private static boolean installed(Path python) throws InterruptedException {
		if (!Files.isExecutable(python)) {
			return false;
		}
		try {
			run(List.of(python.toString(), "-c",
					"import sys, kubernetes; sys.exit(kubernetes.__version__ != '" + PACKAGE_VERSION + "')"),
					"import kubernetes");
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static void run(List<String> command, String what) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		byte[] output = process.getInputStream().readAllBytes();
		if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
			process.destroyForcibly();
			String text = new String(output, StandardCharsets.UTF_8).strip();
			String tail = text.substring(Math.max(0, text.length() - 400));
			throw new IOException(what + " failed" + (tail.isEmpty() ? "" : ": " + tail));
		}
	}

	/**
	 * Whether the client is installed.
	 * @return whether (s) can run
	 */
	boolean available() {
		return this.python != null;
	}

	/**
	 * What was installed, or why it was skipped.
	 * @return the status line
	 */
	String status() {
		return this.status;
	}

	/**
	 * The command of the per-process benchmark's subject (s), which speaks
	 * {@link SubjectProtocol}'s line protocol.
	 * @param namespace the namespace
	 * @param expected the number of objects in it
	 * @return the command
	 */
	List<String> protocolCommand(String namespace, int expected) {
		if (this.python == null) {
			throw new IllegalStateException(this.status);
		}
		return new ArrayList<>(List.of(this.python.toString(), SCRIPT.toAbsolutePath().toString(), "--protocol",
				namespace, Integer.toString(expected)));
	}

	/**
	 * The command of the start benchmark's subject (s), which starts its informer at once
	 * ({@link StartBenchmark}).
	 * @param namespace the namespace
	 * @param expected the number of objects in it
	 * @return the command
	 */
	List<String> startCommand(String namespace, int expected) {
		List<String> command = protocolCommand(namespace, expected);
		command.set(2, "--start");
		return command;
	}

	/**
	 * The command that starts the seed's informer on a namespace.
	 * @param namespace the namespace
	 * @param expected the number of objects in it
	 * @param launchedAt the launch time in epoch seconds
	 * @return the command
	 */
	List<String> command(String namespace, int expected, String launchedAt) {
		if (this.python == null) {
			throw new IllegalStateException(this.status);
		}
		return new ArrayList<>(List.of(this.python.toString(), SCRIPT.toAbsolutePath().toString(), namespace,
				Integer.toString(expected), launchedAt));
	}

}
