package dev.informer.benchmarks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The writer of the per-process benchmark's stream, in a JVM of its own so that no
 * subject shares a process with it: the {@link Workload}'s JSON merge patch of
 * {@code data.seq} ({@link Workload#seqPatch(long)}), update {@code i} on object
 * {@code seq % size}, each due at its time from the start of the batch so that the rate
 * is fixed, or the server's when it cannot take more. It sends them with the JDK's
 * {@link java.net.http.HttpClient} ({@link KubeHttp}), up to 64 at a time, and discards
 * the answers: a fabric8 client took about 4 ms of CPU per patch, which on two cores took
 * the CPU the API server needs to reach 500 patches a second. Commands on standard input:
 * {@code write FIRST COUNT RATE} (answers {@code BENCH WROTE}) and {@code exit}.
 * Arguments: {@code SIZE}, the namespace's object count; the kubeconfig from
 * {@code -Dkubeconfig}.
 */
final class WriterProcess {

	private static final int IN_FLIGHT = 64;

	private final KubeHttp http;

	private final int size;

	private WriterProcess(KubeHttp http, int size) {
		this.http = http;
		this.size = size;
	}

	public static void main(String[] args) throws Exception {
		WriterProcess writer = new WriterProcess(KubeHttp.fromKubeconfig(), Integer.parseInt(args[0]));
		// open the connection and load the classes of a patch before the first measured
		HttpResponse<String> first = writer.http.client()
			.send(writer.http.request(path(args[0], 0)).build(), HttpResponse.BodyHandlers.ofString());
		if (first.statusCode() != 200) {
			throw new IllegalStateException("GET the first ConfigMap: " + first.statusCode() + " " + first.body());
		}
		SubjectProtocol.emit("READY", "pid", ProcessHandle.current().pid());
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		for (String line = in.readLine(); line != null; line = in.readLine()) {
			String[] words = line.trim().split("\\s+");
			if (words[0].equals("write")) {
				int count = Integer.parseInt(words[2]);
				long started = System.nanoTime();
				long failed = writer.write(Long.parseLong(words[1]), count, Integer.parseInt(words[3]));
				double seconds = (System.nanoTime() - started) / 1e9;
				SubjectProtocol.emit("WROTE", "count", count, "failed", failed, "seconds",
						String.format(Locale.ROOT, "%.3f", seconds), "rate",
						String.format(Locale.ROOT, "%.1f", count / seconds));
			}
			else if (words[0].equals("exit")) {
				break;
			}
		}
		Runtime.getRuntime().halt(0);
	}

	private static String path(String size, long seq) {
		int objects = Integer.parseInt(size);
		return "api/v1/namespaces/" + Workload.namespace(objects) + "/configmaps/"
				+ Workload.name((int) (seq % objects));
	}

	/**
	 * Patch {@code count} objects at {@code perSecond}.
	 * @return the patches that failed
	 */
	private long write(long first, int count, int perSecond) throws InterruptedException {
		Semaphore inFlight = new Semaphore(IN_FLIGHT);
		CountDownLatch done = new CountDownLatch(count);
		AtomicLong failed = new AtomicLong();
		long interval = 1_000_000_000L / perSecond;
		long start = System.nanoTime();
		for (int i = 0; i < count; i++) {
			long wait = start + i * interval - System.nanoTime();
			if (wait > 0) {
				LockSupport.parkNanos(wait);
			}
			inFlight.acquire();
			long seq = first + i;
			HttpRequest patch = this.http.request(path(Integer.toString(this.size), seq))
				.header("Content-Type", "application/merge-patch+json")
				.method("PATCH", HttpRequest.BodyPublishers.ofString(Workload.seqPatch(seq)))
				.build();
			this.http.client().sendAsync(patch, HttpResponse.BodyHandlers.discarding()).whenComplete((response, ex) -> {
				if (ex != null || response.statusCode() != 200) {
					failed.incrementAndGet();
				}
				inFlight.release();
				done.countDown();
			});
		}
		done.await();
		return failed.get();
	}

}
