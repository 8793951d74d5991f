package dev.informer.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.informer.benchmarks.Summary.RatioSpec;

/**
 * The markdown of the per-process benchmark ({@link PerProcessBenchmark}): values as
 * median [min–max] over repetitions, ratios paired per repetition, the targets
 * with their verdicts, and every subject that was skipped or flagged.
 */
final class PerProcessReport {

	private static final String[] SYNC_METRICS = { PerProcessBenchmark.COLD_MS, PerProcessBenchmark.COLD_CPU,
			PerProcessBenchmark.WARM_MS, PerProcessBenchmark.WARM_CPU };

	private static final List<String> CLIENTS = List.of("a", "b", "b-c1", "s", "g", "g-json");

	/** Ratios between the clients, numerator first. */
	private static final List<List<String>> PAIRS = List.of(List.of("b", "a"), List.of("b", "s"), List.of("b-c1", "s"),
			List.of("b-c1", "b"), List.of("a", "s"), List.of("a", "g"), List.of("b", "g"), List.of("s", "g"),
			List.of("a", "g-json"), List.of("b", "g-json"), List.of("s", "g-json"), List.of("g-json", "g"));

	private final Map<String, String> context;

	private final Summary summary;

	private final List<String> notes;

	private final Options options;

	PerProcessReport(Map<String, String> context, Summary summary, List<String> notes, Options options) {
		this.context = context;
		this.summary = summary;
		this.notes = notes;
		this.options = options;
	}

	/**
	 * The ratios the report shows, with the targets.
	 * @return the ratio specifications
	 */
	static List<RatioSpec> ratios() {
		List<RatioSpec> specs = new ArrayList<>();
		for (String metric : SYNC_METRICS) {
			specs.add(RatioSpec.cost(metric, "floor-decode", "floor-get"));
			for (String client : CLIENTS) {
				boolean warmTarget = metric.equals(PerProcessBenchmark.WARM_MS) && client.equals("b");
				specs.add(RatioSpec.cost(metric, client, "floor-get", warmTarget ? 1.3 : Double.NaN));
				specs.add(RatioSpec.cost(metric, client, "floor-decode"));
			}
			for (List<String> pair : PAIRS) {
				double target = Double.NaN;
				if (pair.equals(List.of("b", "a")) && (metric.equals(PerProcessBenchmark.COLD_CPU)
						|| metric.equals(PerProcessBenchmark.WARM_CPU))) {
					target = 1.05;
				}
				if (pair.equals(List.of("b", "s")) && metric.equals(PerProcessBenchmark.COLD_MS)) {
					target = 0.5;
				}
				specs.add(RatioSpec.cost(metric, pair.get(0), pair.get(1), target));
			}
		}
		for (List<String> pair : PAIRS) {
			specs.add(RatioSpec.cost(PerProcessBenchmark.HEAP, pair.get(0), pair.get(1)));
		}
		for (String client : CLIENTS) {
			specs.add(RatioSpec.cost(PerProcessBenchmark.HEAP, client, "floor-decode"));
		}
		for (List<String> pair : PAIRS) {
			double target = pair.equals(List.of("b", "a")) ? 1.1 : pair.equals(List.of("b", "s")) ? 1.0 : Double.NaN;
			specs.add(RatioSpec.cost(PerProcessBenchmark.STREAM_CPU, pair.get(0), pair.get(1), target));
			specs.add(RatioSpec.cost(PerProcessBenchmark.STREAM_WAKEUPS, pair.get(0), pair.get(1)));
		}
		specs.add(RatioSpec.cost(PerProcessBenchmark.STREAM_CPU, "floor-decode", "floor-get"));
		specs.add(RatioSpec.cost(PerProcessBenchmark.STREAM_WAKEUPS, "floor-decode", "floor-get"));
		for (String client : CLIENTS) {
			specs.add(RatioSpec.cost(PerProcessBenchmark.STREAM_CPU, client, "floor-decode"));
			specs.add(RatioSpec.cost(PerProcessBenchmark.STREAM_WAKEUPS, client, "floor-decode"));
		}
		return specs;
	}

	String markdown() {
		StringBuilder md = new StringBuilder();
		md.append("Per process: each subject in its own OS process, measured from outside.\n\n");
		this.context.forEach((key, value) -> md.append("- ").append(key).append(": ").append(value).append('\n'));
		md.append("\nSubjects:\n\n");
		ProcessSubjects.legend()
			.forEach((id, text) -> md.append("- (").append(id).append(") ").append(text).append('\n'));
		List<String> ids = new ArrayList<>(ProcessSubjects.legend().keySet());
		List<Integer> sizes = this.options.sizes();
		md.append("\n### Sync\n\n");
		md.append("Informer start → every object delivered to the handler (the floors: request sent → list read or "
				+ "decoded), the subject's own clock; CPU: the process's utime + stime (`/proc/<pid>/stat`) over the same "
				+ "command. Cold: the first informer of a fresh process whose client has made one request; warm: a "
				+ "second informer in the same process after the first. Median [min–max].\n\n");
		md.append("| size | subject | cold ms | cold CPU ms | warm ms | warm CPU ms | heap B/object |\n");
		md.append("|---:|---|---:|---:|---:|---:|---:|\n");
		for (int size : sizes) {
			for (String id : ids) {
				row(md, size, id, PerProcessBenchmark.COLD_MS, PerProcessBenchmark.COLD_CPU,
						PerProcessBenchmark.WARM_MS, PerProcessBenchmark.WARM_CPU, PerProcessBenchmark.HEAP);
			}
			Summary.Stat bytes = this.summary.get(size, "floor-get", PerProcessBenchmark.LIST_BYTES);
			if (bytes != null) {
				md.append("| ")
					.append(size)
					.append(" | list size, bytes | ")
					.append(Summary.format(bytes))
					.append(" | | | | |\n");
			}
		}
		md.append("\nRatios to the floors, paired per repetition, median [min–max]:\n\n");
		md.append("| size | subject | cold ms / floor-get | cold ms / floor-decode | warm ms / floor-get "
				+ "| warm ms / floor-decode | cold CPU / floor-decode | warm CPU / floor-decode |\n");
		md.append("|---:|---|---|---|---|---|---|---|\n");
		for (int size : sizes) {
			for (String id : ids) {
				if (id.equals("floor-get")) {
					continue;
				}
				String[] cells = { ratio(size, PerProcessBenchmark.COLD_MS, id + "/floor-get"),
						ratio(size, PerProcessBenchmark.COLD_MS, id + "/floor-decode"),
						ratio(size, PerProcessBenchmark.WARM_MS, id + "/floor-get"),
						ratio(size, PerProcessBenchmark.WARM_MS, id + "/floor-decode"),
						ratio(size, PerProcessBenchmark.COLD_CPU, id + "/floor-decode"),
						ratio(size, PerProcessBenchmark.WARM_CPU, id + "/floor-decode") };
				if (anyValue(cells)) {
					md.append("| ")
						.append(size)
						.append(" | ")
						.append(id)
						.append(" | ")
						.append(String.join(" | ", cells))
						.append(" |\n");
				}
			}
		}
		md.append("\nRatios between the clients:\n\n");
		md.append(pairHeader());
		for (int size : sizes) {
			for (String metric : new String[] { PerProcessBenchmark.COLD_MS, PerProcessBenchmark.COLD_CPU,
					PerProcessBenchmark.WARM_MS, PerProcessBenchmark.WARM_CPU, PerProcessBenchmark.HEAP }) {
				pairRow(md, size, metric);
			}
		}
		heapGroups(md, sizes, ids);
		int largest = sizes.get(sizes.size() - 1);
		threads(md, largest, "cold", PerProcessBenchmark.COLD_CPU, "ms", ids);
		threads(md, largest, "warm", PerProcessBenchmark.WARM_CPU, "ms", ids);
		stream(md, ids);
		threads(md, this.options.streamSize(), "stream", PerProcessBenchmark.STREAM_CPU, "µs per event", ids);
		targets(md);
		if (!this.notes.isEmpty()) {
			md.append("\nSkipped and flagged:\n\n");
			new LinkedHashSet<>(this.notes).forEach((note) -> md.append("- ").append(note).append('\n'));
		}
		return md.toString();
	}

	private void heapGroups(StringBuilder md, List<Integer> sizes, List<String> ids) {
		String[] groups = { "model", "strings", "collections", "fabric8-client", "starter", "other" };
		StringBuilder rows = new StringBuilder();
		for (int size : sizes) {
			for (String id : ids) {
				if (this.summary.get(size, id, "heap_model_bytes_per_object") == null) {
					continue;
				}
				rows.append("| ")
					.append(size)
					.append(" | ")
					.append(id)
					.append(" | ")
					.append(Summary.format(this.summary.get(size, id, PerProcessBenchmark.HEAP)));
				for (String group : groups) {
					rows.append(" | ")
						.append(Summary.format(this.summary.get(size, id, "heap_" + group + "_bytes_per_object")));
				}
				rows.append(" |\n");
			}
		}
		if (rows.length() > 0) {
			md.append("\nHeap per object of the JVM subjects by class group: `jcmd <pid> GC.class_histogram` (a full "
					+ "collection, then the live objects) after the cold sync minus the same before it, per class, "
					+ "never below zero, divided by the objects. model: `io.fabric8.kubernetes.api.model.*`; strings: "
					+ "`String` and `byte[]`; collections: `java.util.*` and `Object[]`; fabric8-client: the rest of "
					+ "`io.fabric8`; starter: `dev.informer.*`.\n\n");
			md.append(
					"| size | subject | total | model | strings | collections | fabric8-client | starter | other |\n");
			md.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
			md.append(rows);
		}
	}

	private void stream(StringBuilder md, List<String> ids) {
		int size = this.options.streamSize();
		Summary.Stat rate = this.summary.get(size, PerProcessBenchmark.CONTEXT, PerProcessBenchmark.WRITER_RATE);
		if (rate == null) {
			return;
		}
		md.append("\n### Steady state\n\n");
		md.append(String.format(
				"All stream subjects watch the namespace of %d objects at the same time; a writer process patches %d "
						+ "objects after %d of warm-up at %d/s asked (%s/s achieved). CPU per event: each process's own "
						+ "utime + stime from the moment before the first measured patch to its handler having seen "
						+ "every measured one, divided by the events; wake-ups: voluntary context switches of its live "
						+ "threads over the same window (`/proc/<pid>/task/*/status`), per event. A subject that did "
						+ "not see every measured event is flagged below and left out.%n%n",
				size, this.options.streamEvents(), this.options.perProcess().streamWarmup(),
				this.options.perProcess().streamRate(), Summary.format(rate)));
		md.append("| subject | CPU µs/event | wake-ups/event | threads | events received |\n");
		md.append("|---|---:|---:|---:|---:|\n");
		for (String id : ids) {
			Summary.Stat cpu = this.summary.get(size, id, PerProcessBenchmark.STREAM_CPU);
			Summary.Stat received = this.summary.get(size, id, PerProcessBenchmark.STREAM_RECEIVED);
			if (cpu == null && received == null) {
				continue;
			}
			md.append("| ")
				.append(id)
				.append(" | ")
				.append(Summary.format(cpu))
				.append(" | ")
				.append(Summary.format(this.summary.get(size, id, PerProcessBenchmark.STREAM_WAKEUPS)))
				.append(" | ")
				.append(Summary.format(this.summary.get(size, id, PerProcessBenchmark.STREAM_THREADS)))
				.append(" | ")
				.append(Summary.format(received))
				.append(" |\n");
		}
		md.append("| writer (its own process): CPU µs/patch | ")
			.append(Summary.format(this.summary.get(size, PerProcessBenchmark.CONTEXT, PerProcessBenchmark.WRITER_CPU)))
			.append(" | | | |\n");
		Summary.Stat server = this.summary.get(size, PerProcessBenchmark.CONTEXT, PerProcessBenchmark.SERVER_CPU);
		if (server != null) {
			md.append("| kube-apiserver + etcd: CPU µs/event | ").append(Summary.format(server)).append(" | | | |\n");
		}
		md.append("\nRatios, paired per repetition:\n\n");
		md.append(pairHeader());
		pairRow(md, size, PerProcessBenchmark.STREAM_CPU);
		pairRow(md, size, PerProcessBenchmark.STREAM_WAKEUPS);
		md.append("\n| metric | floor-decode/floor-get | a/floor-decode | b/floor-decode | s/floor-decode "
				+ "| g/floor-decode | g-json/floor-decode |\n|---|---|---|---|---|---|---|\n");
		for (String metric : new String[] { PerProcessBenchmark.STREAM_CPU, PerProcessBenchmark.STREAM_WAKEUPS }) {
			md.append("| ").append(metric).append(" | ").append(ratio(size, metric, "floor-decode/floor-get"));
			for (String client : List.of("a", "b", "s", "g", "g-json")) {
				md.append(" | ").append(ratio(size, metric, client + "/floor-decode"));
			}
			md.append(" |\n");
		}
	}

	/**
	 * The CPU time of a phase by group of threads (from {@code /proc/<pid>/task}), the
	 * groups of at least 2 % of the process's CPU.
	 */
	private void threads(StringBuilder md, int size, String phase, String total, String unit, List<String> ids) {
		String prefix = PerProcessBenchmark.THREAD_CPU + phase + ":";
		StringBuilder rows = new StringBuilder();
		for (String id : ids) {
			Summary.Stat process = this.summary.get(size, id, total);
			if (process == null || process.median() <= 0) {
				continue;
			}
			double listed = 0;
			List<Summary.Stat> groups = this.summary.stats()
				.stream()
				.filter((s) -> s.size() == size && s.subject().equals(id) && s.metric().startsWith(prefix))
				.sorted((x, y) -> Double.compare(y.median(), x.median()))
				.toList();
			for (Summary.Stat group : groups) {
				double share = group.median() / process.median();
				if (share >= 0.02) {
					listed += group.median();
					rows.append(String.format(java.util.Locale.ROOT, "| %s | %s | %s | %.0f %% |%n", id,
							group.metric().substring(prefix.length()), Summary.format(group), 100 * share));
				}
			}
			rows.append(String.format(java.util.Locale.ROOT,
					"| %s | (the process: %s; the threads above, their medians summed: %s; the rest are threads "
							+ "under 2 %% and threads that ended, not given as a difference of medians, which can "
							+ "come out negative) | | |%n",
					id, Summary.num(process.median()), Summary.num(listed)));
		}
		if (rows.length() > 0) {
			md.append(String.format("%n%s, %d objects: CPU by thread (`/proc/<pid>/task/*/stat`, names as Linux "
					+ "keeps them, digits as N), %s, median [min–max], and its share of the process's median:%n%n",
					phase, size, unit));
			md.append("| subject | threads | CPU | share |\n|---|---|---:|---:|\n");
			md.append(rows);
		}
	}

	/**
	 * The README's summary: medians of the clients side by side and the starter's ratios
	 * to the seed and to raw fabric8, paired per repetition. The README holds it verbatim
	 * (a test compares them), so its numbers are this run's and no other.
	 * @return the markdown table
	 */
	String readmeSummary() {
		List<String> clients = List.of("g", "g-json", "s", "a", "b");
		StringBuilder md = new StringBuilder("| ConfigMaps of 1 KiB, each client in its own process "
				+ "| client-go, protobuf | client-go, JSON | Python client (the seed) | raw fabric8 | the starter "
				+ "| starter / seed | starter / raw fabric8 |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
		int streamSize = this.options.streamSize();
		summaryRow(md, "CPU per watch event, after "
				+ String.format(Locale.ROOT, "%,d", this.options.perProcess().streamWarmup()) + " events of warm-up",
				streamSize, PerProcessBenchmark.STREAM_CPU, clients, 1, " µs");
		for (int size : this.options.sizes()) {
			String objects = String.format(Locale.ROOT, "%,d", size);
			summaryRow(md, objects + ": informer start → synced, cold", size, PerProcessBenchmark.COLD_MS, clients,
					1000, " s");
			summaryRow(md, objects + ": informer start → synced, warm", size, PerProcessBenchmark.WARM_MS, clients,
					1000, " s");
			summaryRow(md, objects + ": CPU of the cold sync", size, PerProcessBenchmark.COLD_CPU, clients, 1000, " s");
		}
		int largest = this.options.sizes().get(this.options.sizes().size() - 1);
		summaryRow(md, "heap per cached object, bytes", largest, PerProcessBenchmark.HEAP, clients, 1, "");
		return md.toString();
	}

	private void summaryRow(StringBuilder md, String label, int size, String metric, List<String> clients,
			double divisor, String unit) {
		md.append("| ").append(label).append(" |");
		for (String client : clients) {
			Summary.Stat stat = this.summary.get(size, client, metric);
			md.append(' ').append((stat != null) ? Summary.num(stat.median() / divisor) + unit : "-").append(" |");
		}
		for (String denominator : List.of("s", "a")) {
			Summary.Ratio ratio = this.summary.ratio(size, metric, "b/" + denominator);
			md.append(' ').append((ratio != null) ? Summary.num(ratio.stat().median()) + " ×" : "-").append(" |");
		}
		md.append('\n');
	}

	private void targets(StringBuilder md) {
		StringBuilder rows = new StringBuilder();
		for (Summary.Ratio ratio : this.summary.ratios()) {
			if (!Double.isNaN(ratio.target())) {
				Summary.Stat stat = ratio.stat();
				rows.append("| ")
					.append(stat.size())
					.append(" | ")
					.append(stat.metric())
					.append(" | ")
					.append(stat.subject())
					.append(" | ")
					.append(Summary.format(stat))
					.append(" | ≤ ")
					.append(ratio.target())
					.append(" | ")
					.append(ratio.verdict())
					.append(" |\n");
			}
		}
		if (rows.length() > 0) {
			md.append("\n### The issue's targets\n\n| size | metric | ratio | median [min–max] | target | verdict |\n"
					+ "|---:|---|---|---|---:|---|\n");
			md.append(rows);
		}
	}

	private String pairHeader() {
		StringBuilder header = new StringBuilder("| size | metric");
		StringBuilder line = new StringBuilder("|---:|---");
		for (List<String> pair : PAIRS) {
			header.append(" | ").append(pair.get(0)).append('/').append(pair.get(1));
			line.append("|---");
		}
		return header.append(" |\n").append(line).append("|\n").toString();
	}

	private void pairRow(StringBuilder md, int size, String metric) {
		List<String> cells = new ArrayList<>();
		for (List<String> pair : PAIRS) {
			cells.add(ratio(size, metric, pair.get(0) + "/" + pair.get(1)));
		}
		if (anyValue(cells.toArray(String[]::new))) {
			md.append("| ")
				.append(size)
				.append(" | ")
				.append(metric)
				.append(" | ")
				.append(String.join(" | ", cells))
				.append(" |\n");
		}
	}

	private void row(StringBuilder md, int size, String id, String... metrics) {
		Set<String> cells = new LinkedHashSet<>();
		StringBuilder row = new StringBuilder("| " + size + " | " + id + " |");
		for (String metric : metrics) {
			Summary.Stat stat = this.summary.get(size, id, metric);
			if (stat != null) {
				cells.add(metric);
			}
			row.append(' ').append(Summary.format(stat)).append(" |");
		}
		if (!cells.isEmpty()) {
			md.append(row).append('\n');
		}
	}

	private String ratio(int size, String metric, String name) {
		Summary.Ratio ratio = this.summary.ratio(size, metric, name);
		return (ratio != null) ? Summary.format(ratio.stat()) : "-";
	}

	private static boolean anyValue(String[] cells) {
		for (String cell : cells) {
			if (!cell.equals("-")) {
				return true;
			}
		}
		return false;
	}

}
