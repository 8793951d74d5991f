package dev.informer.benchmarks;

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

	private final ApiServer server;

	private final KubernetesClient client;

	private final int writers;

	private final AtomicLong sequence = new AtomicLong(1_000_000);

	Workload(ApiServer server, int writers) {
		this.server = server;
		this.client = server.newClient();
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
		if (this.server.isReal()) {
			ns.serverSideApply();
		}
		else {
			ns.create();
		}
		parallel(size, (index) -> {
			ConfigMap configMap = configMap(namespace, name(index));
			if (this.server.isReal()) {
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
	static io.fabric8.kubernetes.api.model.ManagedFieldsEntry managedFields(ConfigMap configMap) {
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
	 * @throws Exception on failure
	 */
	void stream(int size, int count) throws Exception {
		String namespace = namespace(size);
		AtomicLong next = new AtomicLong();
		ExecutorService pool = Executors.newFixedThreadPool(this.writers);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int w = 0; w < this.writers; w++) {
				futures.add(pool.submit(() -> {
					for (long i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
						update(namespace, name((int) (i % size)), this.sequence.incrementAndGet());
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

	private void update(String namespace, String name, long seq) {
		this.client.configMaps()
			.inNamespace(namespace)
			.withName(name)
			.patch(PatchContext.of(PatchType.JSON_MERGE), seqPatch(seq));
	}

	/**
	 * The JSON merge patch of every update: the sequence number in the data and, for
	 * subjects that only see metadata, in an annotation.
	 * @param seq the sequence number
	 * @return the patch
	 */
	static String seqPatch(long seq) {
		return "{\"metadata\":{\"annotations\":{\"" + Probe.SEQ + "\":\"" + seq + "\"}},\"data\":{\"" + Probe.SEQ
				+ "\":\"" + seq + "\"}}";
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
