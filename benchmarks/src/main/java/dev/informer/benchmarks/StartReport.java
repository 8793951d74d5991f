package dev.informer.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The markdown of the start benchmark ({@link StartBenchmark}): the launches by CPU
 * limit, their ratios paired per repetition with the issue's targets, where the time and
 * the CPU go (the profile by phase), and the stream after the sync.
 */
final class StartReport {

	private static final List<String> ROLES = List.of("jit", "gc-vm", "http", "client", "delivery", "main", "other",
			"process");

	private final Map<String, String> context;

	private final Map<String, String> legend;

	private final Summary summary;

	private final List<String> notes;

	private final Options options;

	StartReport(Map<String, String> context, Map<String, String> legend, Summary summary, List<String> notes,
			Options options) {
		this.context = context;
		this.legend = legend;
		this.summary = summary;
		this.notes = notes;
		this.options = options;
	}

	String markdown() {
		StringBuilder md = new StringBuilder();
		md.append("# Start benchmark\n\n");
		this.context.forEach((key, value) -> md.append("- ").append(key).append(": ").append(value).append('\n'));
		md.append("\n| subject | what runs |\n|---|---|\n");
		this.legend.forEach((id, text) -> md.append("| ").append(id).append(" | ").append(text).append(" |\n"));
		int size = this.options.sizes().get(0);
		md.append(String.format(Locale.ROOT, "%n## Launch → synced, %,d objects%n%n", size));
		md.append("Times from the harness's clock just before the launch and the subject's at its main (`main`), "
				+ "its informer's start and synced; CPU: the process's user + system time (`/proc/self/stat`) at "
				+ "synced, and its part from the informer's start (the cold sync). ms, median [min–max].\n");
		for (String limit : this.options.start().limits()) {
			List<String> rows = new ArrayList<>();
			for (String id : this.legend.keySet()) {
				String label = limit.equals("none") ? id : id + "@" + limit;
				if (this.summary.get(size, label, StartBenchmark.LAUNCH_TO_SYNCED) == null) {
					continue;
				}
				StringBuilder row = new StringBuilder("| ").append(label);
				for (String metric : StartBenchmark.METRICS) {
					row.append(" | ").append(Summary.format(this.summary.get(size, label, metric)));
				}
				rows.add(row.append(" |").toString());
			}
			if (rows.isEmpty()) {
				continue;
			}
			md.append("\nCPU limit: ").append(limit).append("\n\n");
			md.append("| subject | launch → synced | launch → main | main → informer | informer → synced "
					+ "| CPU launch → synced | CPU of the cold sync |\n");
			md.append("|---|---:|---:|---:|---:|---:|---:|\n");
			rows.forEach((row) -> md.append(row).append('\n'));
		}
		md.append("\n## Ratios, paired per repetition\n\n");
		md.append("| metric | ratio | median [min–max] | target | verdict |\n|---|---|---|---:|---|\n");
		for (Summary.Ratio ratio : this.summary.ratios()) {
			md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", ratio.stat().metric(),
					ratio.stat().subject(), Summary.format(ratio.stat()),
					Double.isNaN(ratio.target()) ? "" : "≤ " + ratio.target(), ratio.verdict()));
		}
		md.append("\n## Where the time goes, no CPU limit\n\n");
		md.append("CPU by what the threads do, launch → synced (`/proc/<pid>/task/*/stat` at the answer), ms, "
				+ "median: jit = C1 and C2 compiler threads; gc-vm = GC and VM threads; http = the JDK HttpClient's "
				+ "threads (TLS, the list's bytes); client = fabric8's executor (the list read and decoded, "
				+ "the informer's callbacks); delivery = the starter's listener threads; main = the main thread "
				+ "(JVM start, application context, client); process = a non-JVM subject as a whole.\n\n");
		md.append("| subject | launch → main | main → informer | informer → synced |");
		ROLES.forEach((role) -> md.append(' ').append(role).append(" |"));
		md.append("\n|---|---:|---:|---:|");
		ROLES.forEach((role) -> md.append("---:|"));
		md.append('\n');
		for (String id : this.legend.keySet()) {
			if (this.summary.get(size, id, StartBenchmark.LAUNCH_TO_SYNCED) == null) {
				continue;
			}
			md.append("| ").append(id);
			for (String metric : List.of(StartBenchmark.LAUNCH_TO_MAIN, StartBenchmark.MAIN_TO_INFORMER,
					StartBenchmark.INFORMER_TO_SYNCED)) {
				md.append(" | ").append(median(size, id, metric));
			}
			for (String role : ROLES) {
				md.append(" | ").append(median(size, id, StartBenchmark.THREAD_CPU + role));
			}
			md.append(" |\n");
		}
		md.append(String.format(Locale.ROOT, "%n## Stream: CPU per event over the first %,d events after the sync%n%n",
				this.options.streamEvents()));
		md.append("The stream subjects launched at once (no CPU limit) and synced; then a writer process patches "
				+ "the ConfigMaps; each subject's CPU from just before the first patch to its handler having seen "
				+ "the last, divided by the events. µs per event, median [min–max].\n\n");
		md.append("| subject | CPU µs/event | events received |\n|---|---:|---:|\n");
		for (String id : this.legend.keySet()) {
			Summary.Stat cpu = this.summary.get(size, id, StartBenchmark.STREAM_CPU);
			if (cpu != null) {
				md.append("| ")
					.append(id)
					.append(" | ")
					.append(Summary.format(cpu))
					.append(" | ")
					.append(Summary.format(this.summary.get(size, id, StartBenchmark.STREAM_RECEIVED)))
					.append(" |\n");
			}
		}
		Summary.Stat rate = this.summary.get(size, "stream", "writer_rate");
		if (rate != null) {
			md.append("\nPatches a second the server sustained: ").append(Summary.format(rate)).append('\n');
		}
		if (!this.notes.isEmpty()) {
			md.append("\n## Notes\n\n");
			this.notes.forEach((note) -> md.append("- ").append(note).append('\n'));
		}
		return md.toString();
	}

	private String median(int size, String subject, String metric) {
		Summary.Stat stat = this.summary.get(size, subject, metric);
		return (stat != null) ? Summary.num(stat.median()) : "-";
	}

}
