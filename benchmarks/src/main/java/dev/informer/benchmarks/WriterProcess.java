package dev.informer.benchmarks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * The writer of the per-process benchmark's stream, in a JVM of its own so that no
 * subject shares a process with it: JSON merge patches of {@code data.seq} at a fixed
 * rate ({@link Workload#paced(int, long, int, int)}), on a client from the kubeconfig
 * ({@code -Dkubeconfig}). Commands on standard input: {@code write FIRST COUNT RATE}
 * (answers {@code BENCH WROTE}) and {@code exit}. Arguments: {@code SIZE WRITERS REAL},
 * the namespace's object count, the writer threads and whether the server is a real
 * kube-apiserver.
 */
final class WriterProcess {

	private WriterProcess() {
	}

	public static void main(String[] args) throws Exception {
		int size = Integer.parseInt(args[0]);
		Workload workload = new Workload(new KubernetesClientBuilder().build(), Boolean.parseBoolean(args[2]),
				Integer.parseInt(args[1]));
		// open the connection and load the classes of a patch before the first measured
		workload.get(size, 0);
		SubjectProtocol.emit("READY", "pid", ProcessHandle.current().pid());
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		for (String line = in.readLine(); line != null; line = in.readLine()) {
			String[] words = line.trim().split("\\s+");
			if (words[0].equals("write")) {
				long first = Long.parseLong(words[1]);
				int count = Integer.parseInt(words[2]);
				long started = System.nanoTime();
				long failed = workload.paced(size, first, count, Integer.parseInt(words[3]));
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

}
