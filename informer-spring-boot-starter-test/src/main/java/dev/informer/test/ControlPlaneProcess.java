package dev.informer.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One process of the {@link ControlPlane} (an API server, the controller manager, the
 * scheduler, kwok): started from a fixed command line with its output appended to a log
 * file, stopped gracefully (SIGTERM, as in a rolling upgrade) or killed (SIGKILL, as in a
 * crash), always with every descendant, so that no process outlives its test.
 * <p>
 * {@code -Dinformer.control-plane.nice=N} starts the processes under {@code nice -n N},
 * for machines shared with timing-sensitive work.
 */
final class ControlPlaneProcess {

	private static final int NICE = Integer.getInteger("informer.control-plane.nice", 0);

	private final String name;

	private final List<String> command;

	private final Path log;

	private volatile Process process;

	ControlPlaneProcess(String name, List<String> command, Path log) {
		this.name = name;
		this.command = List.copyOf(command);
		this.log = log;
	}

	String name() {
		return this.name;
	}

	/**
	 * Start the process; it must not be running.
	 */
	synchronized void start() {
		if (isRunning()) {
			throw new IllegalStateException(this.name + " is running");
		}
		List<String> line = new ArrayList<>();
		if (NICE > 0) {
			// nice execs the command: the process is the component itself
			line.addAll(List.of("nice", "-n", String.valueOf(NICE)));
		}
		line.addAll(this.command);
		try {
			this.process = new ProcessBuilder(line).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(this.log.toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start " + this.name + ": " + this.command.get(0), ex);
		}
	}

	/**
	 * Stop the process with SIGTERM and wait until it has exited; kill it if it takes
	 * longer than {@code grace}, as the kubelet does with a static Pod.
	 * @param grace how long it may take to shut down
	 * @return whether it exited within the grace period
	 */
	synchronized boolean stop(Duration grace) {
		Process running = this.process;
		if (running == null) {
			return true;
		}
		running.destroy();
		boolean exited = waitFor(running, grace);
		if (!exited) {
			kill();
		}
		destroyDescendants(running);
		this.process = null;
		return exited;
	}

	/**
	 * Kill the process and its descendants (SIGKILL) and wait until it has exited.
	 */
	synchronized void kill() {
		Process running = this.process;
		if (running == null) {
			return;
		}
		destroyDescendants(running);
		running.destroyForcibly();
		if (!waitFor(running, Duration.ofSeconds(30))) {
			throw new IllegalStateException(this.name + " (pid " + running.pid() + ") did not exit after SIGKILL");
		}
		this.process = null;
	}

	private static void destroyDescendants(Process process) {
		try (Stream<ProcessHandle> descendants = process.descendants()) {
			descendants.forEach(ProcessHandle::destroyForcibly);
		}
	}

	private static boolean waitFor(Process process, Duration timeout) {
		try {
			return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	boolean isRunning() {
		Process running = this.process;
		return running != null && running.isAlive();
	}

	/**
	 * Return the process id, or 0 when it does not run.
	 * @return the id
	 */
	long pid() {
		Process running = this.process;
		return (running != null && running.isAlive()) ? running.pid() : 0;
	}

	/**
	 * Return the resident set size of the process (Linux only), or 0.
	 * @return the RSS in bytes
	 */
	long residentBytes() {
		Process running = this.process;
		if (running == null || !running.isAlive()) {
			return 0;
		}
		try (Stream<String> lines = Files.lines(Path.of("/proc", String.valueOf(running.pid()), "status"))) {
			return lines.filter((line) -> line.startsWith("VmRSS:"))
				.map((line) -> Long.parseLong(line.replaceAll("\\D", "")) * 1024)
				.findFirst()
				.orElse(0L);
		}
		catch (IOException | UncheckedIOException ex) {
			return 0;
		}
	}

	/**
	 * Return the last lines of the process's log, for a failure message.
	 * @param count how many lines
	 * @return the lines
	 */
	String tail(int count) {
		try {
			List<String> lines = Files.readAllLines(this.log);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
		}
		catch (IOException | UncheckedIOException ex) {
			return "(no log: " + ex.getMessage() + ")";
		}
	}

}
