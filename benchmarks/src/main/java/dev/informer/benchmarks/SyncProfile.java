package dev.informer.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;

/**
 * The initial sync alone, for profiling: populate one namespace of the real API server,
 * then start and stop the given subjects in turn, printing each sync's wall-clock time,
 * this JVM's CPU time and the time window (epoch milliseconds) it ran in, so that a JFR
 * recording can be cut to the syncs of one subject. Arguments: subject ids ({@code a},
 * {@code b}, {@code b-keep}, {@code c}; one id alone for a JVM that runs one subject
 * only), the object count, the repetitions (the first two are left out of the medians).
 */
final class SyncProfile {

	private static final int WARMUPS = 2;

	private SyncProfile() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length != 3) {
			throw new IllegalArgumentException("Usage: SyncProfile a,b 10000 10 (subjects, objects, repetitions)");
		}
		List<String> ids = List.of(args[0].split(","));
		int size = Integer.parseInt(args[1]);
		int repetitions = Integer.parseInt(args[2]);
		Map<String, Subject> subjects = Map.of("a", new RawFabric8Subject(), "b", StarterSubject.minimal(), "b-keep",
				StarterSubject.minimalKeepingManagedFields(), "c", StarterSubject.full(), "b-meta",
				StarterSubject.metadataOnly(), "b-wl", StarterSubject.watchList());
		try (ApiServer server = ApiServer.start(false)) {
			Workload workload = new Workload(server, 4);
			try {
				workload.populate(size);
				Map<String, List<double[]>> measured = new TreeMap<>();
				for (int rep = 0; rep < repetitions; rep++) {
					for (String id : ids) {
						double[] sync = sync(subjects.get(id), server, size, rep, id);
						if (rep >= WARMUPS) {
							measured.computeIfAbsent(id, (key) -> new ArrayList<>()).add(sync);
						}
					}
				}
				measured.forEach((id, syncs) -> System.out.printf("%-6s median sync %.1f ms, median CPU %.1f ms%n", id,
						median(syncs, 0), median(syncs, 1)));
			}
			finally {
				workload.close();
			}
		}
	}

	private static double[] sync(Subject subject, ApiServer server, int size, int rep, String id) throws Exception {
		Probe probe = new Probe(size);
		System.gc();
		long windowStart = System.currentTimeMillis();
		try (Subject.Running running = subject.start(server, Workload.namespace(size), probe)) {
			long deadline = System.nanoTime() + 300_000_000_000L;
			while (probe.syncedAt() == 0) {
				if (System.nanoTime() > deadline) {
					throw new TimeoutException(id + " did not sync " + size + " objects within 5 minutes");
				}
				Thread.sleep(1);
			}
			double ms = (probe.syncedAt() - running.informerStartedAt()) / 1e6;
			double cpu = probe.hasSyncCpu() ? probe.syncCpuNanos() / 1e6 : Double.NaN;
			System.out.printf("rep %d %-6s sync %.1f ms cpu %.1f ms window %d %d%n", rep, id, ms, cpu, windowStart,
					System.currentTimeMillis());
			return new double[] { ms, cpu };
		}
	}

	private static double median(List<double[]> values, int index) {
		double[] sorted = values.stream().mapToDouble((value) -> value[index]).sorted().toArray();
		return sorted[sorted.length / 2];
	}

}
