package dev.informer.benchmarks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;

/**
 * The subject's side of the per-process benchmark's line protocol, which the JVM, Go and
 * Python subjects all speak ({@link PerProcessBenchmark}). The harness writes commands to
 * the subject's standard input, one a line: {@code sync} (start the informer, answer when
 * every object has been delivered to the handler), {@code prepare} (replace the informer
 * by a new, unstarted one, for a warm sync), {@code heap} (subjects that measure their
 * own heap), {@code await FIRST COUNT} (answer when the handler has seen every update of
 * sequence numbers FIRST to FIRST + COUNT - 1), {@code count} and {@code exit}. The
 * subject answers on standard output with lines starting {@value #PREFIX}, which it may
 * mix with its logs.
 */
final class SubjectProtocol {

	static final String PREFIX = "BENCH ";

	private static final PrintStream out = System.out;

	private SubjectProtocol() {
	}

	/**
	 * What one kind of subject does at each command.
	 */
	interface Driver {

		/**
		 * Make a new informer ready to start (at launch: also the client, with its
		 * connection open), without starting it.
		 * @throws Exception on failure
		 */
		void prepare() throws Exception;

		/**
		 * Start the informer; return when every expected object has reached the handler.
		 * @throws Exception on failure
		 */
		void sync() throws Exception;

		/**
		 * After the sync's time is taken: what the subject reports with it.
		 * @return name to value, such as the objects cached
		 */
		Map<String, Object> synced();

	}

	/**
	 * Print one answer.
	 * @param verb the answer
	 * @param pairs names and values, alternating
	 */
	static void emit(String verb, Object... pairs) {
		Map<String, Object> map = new LinkedHashMap<>();
		for (int i = 0; i + 1 < pairs.length; i += 2) {
			map.put(pairs[i].toString(), pairs[i + 1]);
		}
		emit(verb, map);
	}

	/**
	 * Print one answer.
	 * @param verb the answer
	 * @param pairs names and values
	 */
	static void emit(String verb, Map<String, Object> pairs) {
		StringBuilder line = new StringBuilder(PREFIX).append(verb);
		pairs.forEach((name, value) -> line.append(' ').append(name).append('=').append(value));
		synchronized (out) {
			out.println(line);
			out.flush();
		}
	}

	/**
	 * Prepare the first informer, say READY, and serve commands until {@code exit}.
	 * @param driver the subject
	 * @param tally what its handler counts
	 */
	static void serve(Driver driver, Tally tally) {
		try {
			driver.prepare();
			emit("READY", "pid", ProcessHandle.current().pid());
			BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			for (String line = in.readLine(); line != null; line = in.readLine()) {
				String[] words = line.trim().split("\\s+");
				switch (words[0]) {
					case "sync" -> {
						long startEpoch = System.currentTimeMillis();
						long started = System.nanoTime();
						driver.sync();
						long ended = System.nanoTime();
						Map<String, Object> pairs = new LinkedHashMap<>();
						pairs.put("ms", String.format(Locale.ROOT, "%.3f", (ended - started) / 1e6));
						pairs.put("start_epoch_ms", startEpoch);
						pairs.put("end_epoch_ms", System.currentTimeMillis());
						pairs.putAll(driver.synced());
						emit("SYNCED", pairs);
					}
					case "prepare" -> {
						driver.prepare();
						emit("READY", "pid", ProcessHandle.current().pid());
					}
					case "await" -> tally.window(Long.parseLong(words[1]), Integer.parseInt(words[2]));
					case "count" -> emit("COUNT", "received", tally.received(), "updates", tally.updates());
					case "exit" -> exit(0);
					default -> emit("ERROR", "message", "unknown-command:" + words[0]);
				}
			}
			exit(0);
		}
		catch (Throwable ex) {
			ex.printStackTrace(out);
			emit("ERROR", "message", ex.getClass().getSimpleName());
			exit(1);
		}
	}

	/**
	 * After a start ({@link StartBenchmark}): say {@code STARTED} with what the subject
	 * measured of its own start, then serve the stream's commands ({@code await},
	 * {@code count}) until {@code exit}.
	 * @param started name to value pairs of the start
	 * @param tally what the handler counts
	 */
	static void serveStarted(Map<String, Object> started, Tally tally) {
		try {
			Map<String, Object> pairs = new LinkedHashMap<>();
			pairs.put("pid", ProcessHandle.current().pid());
			pairs.putAll(started);
			emit("STARTED", pairs);
			BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			for (String line = in.readLine(); line != null; line = in.readLine()) {
				String[] words = line.trim().split("\\s+");
				switch (words[0]) {
					case "await" -> tally.window(Long.parseLong(words[1]), Integer.parseInt(words[2]));
					case "count" -> emit("COUNT", "received", tally.received(), "updates", tally.updates());
					case "exit" -> exit(0);
					default -> emit("ERROR", "message", "unknown-command:" + words[0]);
				}
			}
			exit(0);
		}
		catch (Throwable ex) {
			ex.printStackTrace(out);
			emit("ERROR", "message", ex.getClass().getSimpleName());
			exit(1);
		}
	}

	/**
	 * The process's CPU time, user and system, of all its threads, from
	 * {@code /proc/self/stat}: the same source the harness reads from outside and every
	 * subject of the start benchmark reads, whatever its language.
	 * @param ticksPerSecond the clock ticks per second of those times
	 * @return milliseconds
	 */
	static double selfCpuMillis(long ticksPerSecond) {
		try {
			String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/stat"),
					StandardCharsets.US_ASCII);
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 1000.0 / ticksPerSecond;
		}
		catch (java.io.IOException ex) {
			return Double.NaN;
		}
	}

	/**
	 * End the process without running its shutdown hooks (what happens after the last
	 * measurement is not measured), after writing any flight recording started with
	 * {@code -XX:StartFlightRecording} to its file.
	 */
	static void exit(int status) {
		if (FlightRecorder.isInitialized()) {
			for (Recording recording : FlightRecorder.getFlightRecorder().getRecordings()) {
				if (recording.getDestination() != null) {
					// stopping writes the recording to its destination
					recording.stop();
				}
			}
		}
		out.flush();
		Runtime.getRuntime().halt(status);
	}

	/**
	 * What the handler counts: adds (for the sync), and the distinct sequence numbers of
	 * the updates in the window the harness set (for the stream), so that a subject that
	 * missed or repeated an event cannot look complete.
	 */
	static final class Tally {

		private final int expectedAdds;

		private long adds;

		private long updates;

		private long first;

		private BitSet seen = new BitSet();

		private int count = -1;

		private int received;

		Tally(int expectedAdds) {
			this.expectedAdds = expectedAdds;
		}

		synchronized void added() {
			if (++this.adds == this.expectedAdds) {
				notifyAll();
			}
		}

		/**
		 * Count an update.
		 * @param seq its {@code data.seq}, or {@code null}
		 */
		void updated(String seq) {
			long value = -1;
			if (seq != null) {
				try {
					value = Long.parseLong(seq);
				}
				catch (NumberFormatException ex) {
					// not the writer's
				}
			}
			updated(value);
		}

		/**
		 * Count an update.
		 * @param seq its sequence number, or -1
		 */
		void updated(long seq) {
			int reached = -1;
			long window;
			synchronized (this) {
				window = this.first;
				this.updates++;
				long index = seq - this.first;
				if (seq >= 0 && index >= 0 && index < this.count && !this.seen.get((int) index)) {
					this.seen.set((int) index);
					if (++this.received == this.count) {
						reached = this.received;
					}
				}
			}
			if (reached >= 0) {
				emit("REACHED", "first", window, "received", reached);
			}
		}

		synchronized void resetAdds() {
			this.adds = 0;
		}

		/**
		 * Wait until every expected object was added.
		 * @throws InterruptedException when interrupted
		 */
		synchronized void awaitAdds() throws InterruptedException {
			long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
			while (this.adds < this.expectedAdds) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					throw new IllegalStateException("only " + this.adds + " of " + this.expectedAdds + " added");
				}
				TimeUnit.NANOSECONDS.timedWait(this, left);
			}
		}

		synchronized long adds() {
			return this.adds;
		}

		void window(long first, int count) {
			synchronized (this) {
				this.first = first;
				this.count = count;
				this.seen = new BitSet(count);
				this.received = 0;
			}
			if (count == 0) {
				emit("REACHED", "first", first, "received", 0);
			}
		}

		synchronized int received() {
			return this.received;
		}

		synchronized long updates() {
			return this.updates;
		}

	}

}
