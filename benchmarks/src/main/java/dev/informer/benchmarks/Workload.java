package dev.informer.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/**
 * Writes the benchmark's ConfigMaps: the initial population (server-side apply on the
 * real server, so objects carry the managedFields the server computes; on the mock server
 * an equivalent entry is written explicitly), a sustained stream of updates, and paced
 * updates for latency. Each update sets {@code data.seq} to a unique number.
 */
final class Workload {

	static final int DATA_KEYS = 8;

	private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private final boolean real;

	private final KubernetesClient client;

	private final int writers;

	private final AtomicLong sequence = new AtomicLong(1_000_000);

	Workload(ApiServer server, int writers) {
		this(server.newClient(), server.isReal(), writers);
	}

	/**
	 * A workload on a client of its own, as in the writer process of the per-process
	 * benchmark ({@link WriterProcess}).
	 * @param client the client, closed by {@link #close()}
	 * @param real whether the server is a real kube-apiserver (server-side apply)
	 * @param writers threads that write
	 */
	Workload(KubernetesClient client, boolean real, int writers) {
		this.real = real;
		this.client = client;
		this.writers = writers;
	}

	static String namespace(int size) {
		return "bench-" + size;
	}

	static String name(int index) {
		return String.format("cm-%06d", index);
	}

	/**
	 * Create a namespace holding {@code size} ConfigMaps of about 1 KiB each (without
	 * managedFields).
	 * @param size the number of objects
	 * @throws Exception on failure
	 */
	void populate(int size) throws Exception {
		String namespace = namespace(size);
		var ns = this.client.namespaces()
			.resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build());
		if (this.real) {
			ns.serverSideApply();
		}
		else {
			ns.create();
		}
		parallel(size, (index) -> {
			ConfigMap configMap = configMap(namespace, name(index));
			if (this.real) {
				this.client.configMaps()
					.inNamespace(namespace)
					.resource(configMap)
					.fieldManager("bench-populate")
					.forceConflicts()
					.serverSideApply();
			}
			else {
				configMap.getMetadata().setManagedFields(List.of(managedFields(configMap)));
				this.client.configMaps().inNamespace(namespace).resource(configMap).create();
			}
		});
	}

	static ConfigMap configMap(String namespace, String name) {
		Map<String, String> data = new LinkedHashMap<>();
		for (int key = 0; key < DATA_KEYS; key++) {
			// 8 x ~110 bytes plus metadata: about 1 KiB of JSON per object
			data.put("key-" + key, (name + "-value-" + key + "-").repeat(4));
		}
		return new ConfigMapBuilder().withNewMetadata()
			.withNamespace(namespace)
			.withName(name)
			.addToLabels("app", "bench")
			.addToLabels("tier", "backend")
			.addToAnnotations("bench.informer.dev/owner", "team-benchmarks")
			.endMetadata()
			.withData(data)
			.build();
	}

	/**
	 * The entry kube-apiserver writes for a server-side apply of {@link #configMap}, for
	 * the mock server, which computes none.
	 */
	private static io.fabric8.kubernetes.api.model.ManagedFieldsEntry managedFields(ConfigMap configMap) {
		Map<String, Object> dataFields = new LinkedHashMap<>();
		configMap.getData().keySet().forEach((key) -> dataFields.put("f:" + key, Map.of()));
		Map<String, Object> labels = new LinkedHashMap<>();
		configMap.getMetadata().getLabels().keySet().forEach((key) -> labels.put("f:" + key, Map.of()));
		Map<String, Object> annotations = new LinkedHashMap<>();
		configMap.getMetadata().getAnnotations().keySet().forEach((key) -> annotations.put("f:" + key, Map.of()));
		FieldsV1 fields = new FieldsV1();
		fields.setAdditionalProperty("f:data", dataFields);
		fields.setAdditionalProperty("f:metadata", Map.of("f:labels", labels, "f:annotations", annotations));
		return new ManagedFieldsEntryBuilder().withApiVersion("v1")
			.withFieldsType("FieldsV1")
			.withFieldsV1(fields)
			.withManager("bench-populate")
			.withOperation("Apply")
			.withTime(Instant.now().toString())
			.build();
	}

	/**
	 * Update {@code count} objects of the namespace round-robin as fast as the writers
	 * can.
	 * @param size the namespace's object count
	 * @param count the number of updates
	 * @return the CPU time the writer threads used, in nanoseconds
	 * @throws Exception on failure
	 */
	long stream(int size, int count) throws Exception {
		String namespace = namespace(size);
		AtomicLong next = new AtomicLong();
		AtomicLong cpu = new AtomicLong();
		ExecutorService pool = Executors.newFixedThreadPool(this.writers);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int w = 0; w < this.writers; w++) {
				futures.add(pool.submit(() -> {
					long before = threads.getCurrentThreadCpuTime();
					for (long i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
						update(namespace, name((int) (i % size)), this.sequence.incrementAndGet());
					}
					cpu.addAndGet(threads.getCurrentThreadCpuTime() - before);
					return null;
				}));
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			pool.shutdownNow();
		}
		return cpu.get();
	}

	/**
	 * Update objects one at a time at a fixed rate, noting when each write was issued and
	 * when it returned.
	 * @param size the namespace's object count
	 * @param count the number of updates
	 * @param perSecond the rate
	 * @return sequence number to {@link System#nanoTime()} before the write was issued
	 * and after it returned
	 */
	Map<Long, long[]> paced(int size, int count, int perSecond) {
		String namespace = namespace(size);
		Map<Long, long[]> returnedAt = new LinkedHashMap<>();
		long interval = 1_000_000_000L / perSecond;
		long due = System.nanoTime();
		for (int i = 0; i < count; i++) {
			long seq = this.sequence.incrementAndGet();
			long issued = System.nanoTime();
			update(namespace, name(i % size), seq);
			returnedAt.put(seq, new long[] { issued, System.nanoTime() });
			due += interval;
			long wait = due - System.nanoTime();
			if (wait > 0) {
				LockSupport.parkNanos(wait);
			}
		}
		return returnedAt;
	}

	/**
	 * Update objects of the namespace at a fixed rate, with the sequence numbers
	 * {@code first} to {@code first + count - 1}, update {@code i} on object
	 * {@code (first + i) % size}: each write is due at its time from the start and the
	 * writer threads catch up when they fall behind, so the rate is the server's when it
	 * cannot take more.
	 * @param size the namespace's object count
	 * @param first the first sequence number
	 * @param count the number of updates
	 * @param perSecond the rate
	 * @return the updates that failed
	 * @throws Exception on failure
	 */
	long paced(int size, long first, int count, int perSecond) throws Exception {
		String namespace = namespace(size);
		long interval = 1_000_000_000L / perSecond;
		long start = System.nanoTime();
		AtomicLong failed = new AtomicLong();
		parallel(count, (index) -> {
			long wait = start + index * interval - System.nanoTime();
			if (wait > 0) {
				LockSupport.parkNanos(wait);
			}
			long seq = first + index;
			try {
				update(namespace, name((int) (seq % size)), seq);
			}
			catch (RuntimeException ex) {
				failed.incrementAndGet();
			}
		});
		return failed.get();
	}

	private void update(String namespace, String name, long seq) {
		this.client.configMaps()
			.inNamespace(namespace)
			.withName(name)
			.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"annotations\":{\"" + Probe.SEQ + "\":\""
					+ seq + "\"}},\"data\":{\"" + Probe.SEQ + "\":\"" + seq + "\"}}");
	}

	ConfigMap get(int size, int index) {
		return this.client.configMaps().inNamespace(namespace(size)).withName(name(index)).get();
	}

	List<ConfigMap> list(int size) {
		return this.client.configMaps().inNamespace(namespace(size)).list().getItems();
	}

	void close() {
		this.client.close();
	}

	private void parallel(int count, IndexTask task) throws Exception {
		AtomicLong next = new AtomicLong();
		ExecutorService pool = Executors.newFixedThreadPool(this.writers);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int w = 0; w < this.writers; w++) {
				futures.add(pool.submit(() -> {
					for (long i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
						task.run((int) i);
					}
					return null;
				}));
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

	@FunctionalInterface
	private interface IndexTask {

		void run(int index) throws Exception;

	}

}
