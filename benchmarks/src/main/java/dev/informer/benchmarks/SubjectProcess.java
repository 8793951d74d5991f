package dev.informer.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The harness's side of one process of the per-process benchmark (a subject or the
 * writer): it writes commands to the process's standard input and reads the
 * {@link SubjectProtocol} answers from its output, reading the process's {@link ProcStat
 * CPU time} at the moment each answer arrives. Everything the process prints goes to a
 * log file.
 */
final class SubjectProcess implements AutoCloseable {

	private final String name;

	private final Process process;

	private final Writer input;

	private final BlockingQueue<Answer> answers = new LinkedBlockingQueue<>();

	private final Deque<String> tail = new ArrayDeque<>();

	private final Path log;

	/**
	 * One answer of the process.
	 *
	 * @param verb what it says, such as {@code SYNCED}
	 * @param values its name to value pairs
	 * @param at {@link System#nanoTime()} when the harness read it
	 * @param epochMillis the wall-clock time then
	 * @param stat the process's CPU time then
	 */
	record Answer(String verb, Map<String, String> values, long at, long epochMillis, ProcStat.Sample stat) {

		double number(String name) {
			String value = this.values.get(name);
			return (value != null) ? Double.parseDouble(value) : Double.NaN;
		}

	}

	private SubjectProcess(String name, Process process, Path log) throws IOException {
		this.name = name;
		this.process = process;
		this.log = log;
		this.input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
		Files.createDirectories(log.getParent());
		Thread reader = new Thread(this::read, "read-" + name);
		reader.setDaemon(true);
		reader.start();
	}

	/**
	 * Launch a process.
	 * @param name what to call it in messages and the log's name
	 * @param command its command line
	 * @param environment variables to add
	 * @param log where its output goes
	 * @return the running process
	 * @throws IOException when it cannot be launched
	 */
	static SubjectProcess start(String name, List<String> command, Map<String, String> environment, Path log)
			throws IOException {
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
		builder.environment().putAll(environment);
		return new SubjectProcess(name, builder.start(), log);
	}

	long pid() {
		return this.process.pid();
	}

	String name() {
		return this.name;
	}

	void send(String command) {
		try {
			this.input.write(command + "\n");
			this.input.flush();
		}
		catch (IOException ex) {
			throw new IllegalStateException(this.name + " does not take commands any more" + tail(), ex);
		}
	}

	/**
	 * Wait for the next answer, which must be {@code verb}.
	 * @param verb the answer expected
	 * @param timeout how long to wait
	 * @return the answer
	 * @throws TimeoutException when none arrives in time
	 * @throws InterruptedException when interrupted
	 */
	Answer await(String verb, Duration timeout) throws TimeoutException, InterruptedException {
		Answer answer = this.answers.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
		if (answer == null) {
			throw new TimeoutException(this.name + " did not answer " + verb + " within " + timeout + tail());
		}
		if (!answer.verb().equals(verb)) {
			throw new IllegalStateException(this.name + " answered " + answer.verb() + " " + answer.values() + " where "
					+ verb + " was expected" + tail());
		}
		return answer;
	}

	/**
	 * Wait for the {@code REACHED} of the window starting at {@code first}, passing over
	 * a late one of an earlier window.
	 * @param first the window's first sequence number
	 * @param timeout how long to wait
	 * @return the answer
	 * @throws TimeoutException when none arrives in time
	 * @throws InterruptedException when interrupted
	 */
	Answer awaitReached(long first, Duration timeout) throws TimeoutException, InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			Answer answer = await("REACHED", Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
			if (Long.parseLong(answer.values().getOrDefault("first", "-1")) == first) {
				return answer;
			}
		}
	}

	/**
	 * Send a command and wait for its answer.
	 * @param command the command
	 * @param verb the answer expected
	 * @param timeout how long to wait
	 * @return the answer
	 * @throws TimeoutException when none arrives in time
	 * @throws InterruptedException when interrupted
	 */
	Answer ask(String command, String verb, Duration timeout) throws TimeoutException, InterruptedException {
		send(command);
		return await(verb, timeout);
	}

	ProcStat.Sample stat() {
		return ProcStat.read(pid());
	}

	private void read() {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8));
				Writer logWriter = Files.newBufferedWriter(this.log, StandardCharsets.UTF_8)) {
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				if (line.startsWith(SubjectProtocol.PREFIX)) {
					ProcStat.Sample stat = ProcStat.read(pid());
					long at = System.nanoTime();
					String[] words = line.substring(SubjectProtocol.PREFIX.length()).trim().split("\\s+");
					Map<String, String> values = new LinkedHashMap<>();
					for (int i = 1; i < words.length; i++) {
						int eq = words[i].indexOf('=');
						if (eq > 0) {
							values.put(words[i].substring(0, eq), words[i].substring(eq + 1));
						}
					}
					this.answers.add(new Answer(words[0], values, at, System.currentTimeMillis(), stat));
				}
				logWriter.write(line);
				logWriter.write('\n');
				logWriter.flush();
				synchronized (this.tail) {
					this.tail.addLast(line);
					if (this.tail.size() > 40) {
						this.tail.removeFirst();
					}
				}
			}
		}
		catch (IOException ex) {
			// the process ended
		}
		this.answers
			.add(new Answer("EXITED", Map.of(), System.nanoTime(), System.currentTimeMillis(), ProcStat.Sample.NONE));
	}

	private String tail() {
		synchronized (this.tail) {
			return "; its last lines (all in " + this.log + "):\n  " + String.join("\n  ", this.tail);
		}
	}

	/**
	 * Wait until the process has exited by itself (a training run writing its archive).
	 * @param timeout how long to wait
	 * @throws InterruptedException when interrupted
	 * @throws TimeoutException when it is still running then
	 */
	void awaitExit(Duration timeout) throws InterruptedException, TimeoutException {
		if (!this.process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
			throw new TimeoutException(this.name + " did not exit within " + timeout + tail());
		}
	}

	/**
	 * Ask the process to exit, and end it if it does not.
	 */
	@Override
	public void close() {
		try {
			if (this.process.isAlive()) {
				send("exit");
			}
		}
		catch (IllegalStateException ex) {
			// it ended already
		}
		try {
			if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

}
