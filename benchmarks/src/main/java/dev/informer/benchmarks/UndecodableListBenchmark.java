package dev.informer.benchmarks;

import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.StringJoiner;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;

import dev.informer.runtime.kinds.InformerSerialization;
import dev.informer.runtime.kinds.UndecodableObjects;
import dev.informer.watch.UndecodableObject;

/**
 * What a list with one object that does not decode costs against the same list without
 * it, decoded by an informer's serialization in this JVM (no server): the benchmark's
 * ConfigMaps with managedFields, the undecodable one last, so that the whole list is
 * decoded once the fast way before it fails. Each repetition decodes both lists, in an
 * order alternated every repetition, and reports the ratio of their times and of their
 * CPU times; the first repetitions (the JIT's) are reported apart. Arguments: objects,
 * repetitions, warm-up repetitions.
 */
final class UndecodableListBenchmark {

	private static final TypeReference<ConfigMapList> LIST = new TypeReference<>() {
	};

	private UndecodableListBenchmark() {
	}

	public static void main(String[] args) {
		int size = (args.length > 0) ? Integer.parseInt(args[0]) : 10_000;
		int repetitions = (args.length > 1) ? Integer.parseInt(args[1]) : 20;
		int warmups = (args.length > 2) ? Integer.parseInt(args[2]) : 5;
		KubernetesSerialization json = new KubernetesSerialization();
		List<String> items = new ArrayList<>(size);
		for (int index = 0; index < size; index++) {
			ConfigMap configMap = Workload.configMap("bench", Workload.name(index));
			configMap.getMetadata().setUid("uid-" + index);
			configMap.getMetadata().setResourceVersion(String.valueOf(1000 + index));
			configMap.getMetadata().setManagedFields(List.of(Workload.managedFields(configMap)));
			items.add(json.asJson(configMap));
		}
		byte[] clean = list(items);
		String last = items.get(size - 1);
		items.set(size - 1, last.replace("\"data\":", "\"immutable\":{\"not\":\"a boolean\"},\"data\":"));
		byte[] withUndecodable = list(items);
		InformerSerialization serialization = InformerSerialization.of(ConfigMap.class, "ConfigMap", true);
		Counting counting = new Counting();
		InformerSerialization reporting = serialization.reporting(counting);
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		double[] time = new double[repetitions];
		double[] cpu = new double[repetitions];
		for (int rep = 0; rep < warmups + repetitions; rep++) {
			long[] cleanCost;
			long[] slowCost;
			if (rep % 2 == 0) {
				cleanCost = decode(reporting, clean, size, threads);
				slowCost = decode(reporting, withUndecodable, size - 1, threads);
			}
			else {
				slowCost = decode(reporting, withUndecodable, size - 1, threads);
				cleanCost = decode(reporting, clean, size, threads);
			}
			double timeRatio = (double) slowCost[0] / cleanCost[0];
			double cpuRatio = (double) slowCost[1] / cleanCost[1];
			System.out.printf("rep %d%s clean %.1f ms (cpu %.1f), with one undecodable %.1f ms (cpu %.1f): %.3f x%n",
					rep, (rep < warmups) ? " (warm-up)" : "", cleanCost[0] / 1e6, cleanCost[1] / 1e6, slowCost[0] / 1e6,
					slowCost[1] / 1e6, timeRatio);
			if (rep >= warmups) {
				time[rep - warmups] = timeRatio;
				cpu[rep - warmups] = cpuRatio;
			}
		}
		if (counting.listed != warmups + repetitions) {
			throw new IllegalStateException("Expected one undecodable object named per list, got " + counting.listed);
		}
		System.out.printf(
				"%d objects, %d repetitions after %d warm-up: with one undecodable / clean: time %s, CPU %s%n", size,
				repetitions, warmups, summary(time), summary(cpu));
	}

	private static long[] decode(InformerSerialization serialization, byte[] body, int expected, ThreadMXBean threads) {
		long cpu = threads.getCurrentThreadCpuTime();
		long start = System.nanoTime();
		ConfigMapList list = serialization.unmarshal(new ByteArrayInputStream(body), LIST);
		long elapsed = System.nanoTime() - start;
		long cpuElapsed = threads.getCurrentThreadCpuTime() - cpu;
		if (list.getItems().size() != expected) {
			throw new IllegalStateException("Decoded " + list.getItems().size() + " objects, expected " + expected);
		}
		return new long[] { elapsed, cpuElapsed };
	}

	private static byte[] list(List<String> items) {
		StringJoiner joined = new StringJoiner(",",
				"{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\",\"metadata\":{\"resourceVersion\":\"99999\"},\"items\":[",
				"]}");
		items.forEach(joined::add);
		return joined.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static String summary(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		return String.format("%.3f [%.3f–%.3f]", sorted[sorted.length / 2], sorted[0], sorted[sorted.length - 1]);
	}

	/**
	 * Counts the lists that named one undecodable object.
	 */
	private static final class Counting implements UndecodableObjects {

		private int listed;

		@Override
		public void skipped(UndecodableObject object) {
		}

		@Override
		public void deleted(String key) {
		}

		@Override
		public void listed(Collection<UndecodableObject> skipped) {
			if (skipped.size() == 1) {
				this.listed++;
			}
		}

		@Override
		public @Nullable HasMetadata cached(String key) {
			return null;
		}

		@Override
		public void stoppedDecoding(HasMetadata handedOn, HasMetadata lastDecoded) {
		}

	}

}
