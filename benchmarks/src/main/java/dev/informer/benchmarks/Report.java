package dev.informer.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Prints the table and writes results.json, results.csv and results.png.
 */
final class Report {

	private static final String[] METRICS = { Measurement.SYNC_MS, Measurement.SYNC_CPU_MS,
			Measurement.STREAM_EVENTS_PER_S, Measurement.CPU_US_PER_EVENT, Measurement.LATENCY_P50_MS,
			Measurement.LATENCY_P99_MS };

	private static final Color[] COLORS = { new Color(0x4E79A7), new Color(0xF28E2B), new Color(0xE15759),
			new Color(0x76B7B2), new Color(0x59A14F), new Color(0xB07AA1) };

	private final Map<String, String> context;

	/** Subject id to description, in the order of the table. */
	private final Map<String, String> legend;

	private final Summary summary;

	private final List<PublishJmh.Score> jmh;

	Report(Map<String, String> context, List<Subject> subjects, Summary summary, List<PublishJmh.Score> jmh) {
		this(context, legend(subjects), summary, jmh);
	}

	/**
	 * A report of any benchmark whose measurements a {@link Summary} holds.
	 * @param context what ran where, printed first
	 * @param legend subject id to description
	 * @param summary the statistics
	 * @param jmh JMH scores, if any
	 */
	Report(Map<String, String> context, Map<String, String> legend, Summary summary, List<PublishJmh.Score> jmh) {
		this.context = context;
		this.legend = legend;
		this.summary = summary;
		this.jmh = jmh;
	}

	private static Map<String, String> legend(List<Subject> subjects) {
		Map<String, String> legend = new LinkedHashMap<>();
		subjects.forEach((subject) -> legend.put(subject.id(), subject.description()));
		legend.put(Harness.DECODE,
				"decode floor: KubernetesSerialization parsing the same list / watch-event JSON bytes");
		return legend;
	}

	String table() {
		StringBuilder out = new StringBuilder();
		this.context.forEach((key, value) -> out.append(key).append(": ").append(value).append('\n'));
		out.append("\nSubjects:\n");
		this.legend
			.forEach((id, description) -> out.append("  (").append(id).append(") ").append(description).append('\n'));
		out.append("\nMedian [min–max] over repetitions. CPU per event: the decode floor's thread alone; "
				+ "the subjects' CPU per event and heap per object are measured per process (--per-process). Sync CPU: this JVM's CPU time (all threads, GC included; "
				+ "not the API server's) from informer start to the last initial add. "
				+ "Latency from the write being issued to the listener running.\n\n");
		out.append("| size | subject | initial sync ms | sync CPU ms | stream events/s "
				+ "| CPU µs/event | latency p50 ms | latency p99 ms |\n");
		out.append("|---:|---|---:|---:|---:|---:|---:|---:|\n");
		List<String> ids = new ArrayList<>(this.legend.keySet());
		for (int size : this.summary.sizes()) {
			for (String id : ids) {
				StringBuilder row = new StringBuilder("| " + size + " | " + id + " |");
				boolean any = false;
				for (String metric : METRICS) {
					Summary.Stat stat = this.summary.get(size, id, metric);
					any |= stat != null;
					row.append(' ').append(Summary.format(stat)).append(" |");
				}
				if (any) {
					out.append(row).append('\n');
				}
			}
		}
		out.append("\nRatios (costs: time, time per event = 1/throughput, CPU), paired per repetition:\n\n");
		out.append("| size | metric | ratio | median [min–max] | target | verdict |\n");
		out.append("|---:|---|---|---|---:|---|\n");
		for (Summary.Ratio ratio : this.summary.ratios()) {
			Summary.Stat stat = ratio.stat();
			String metric = stat.metric().equals(Measurement.STREAM_EVENTS_PER_S) ? "time per event (stream)"
					: stat.metric();
			out.append("| ")
				.append(stat.size())
				.append(" | ")
				.append(metric)
				.append(" | ")
				.append(stat.subject())
				.append(" | ")
				.append(Summary.format(stat))
				.append(" | ")
				.append(Double.isNaN(ratio.target()) ? "" : "≤ " + ratio.target())
				.append(" | ")
				.append(ratio.verdict())
				.append(" |\n");
		}
		if (!this.jmh.isEmpty()) {
			out.append("\nJMH publish path (InformerEventPublisher.publish of a new ResourceUpdatedEvent "
					+ "to one no-op @EventListener):\n\n");
			out.append(
					"| condition | ns/event | ± 99.9% | min–max iteration | target ≤ 2000 ns |\n|---|---:|---:|---|---|\n");
			for (PublishJmh.Score score : this.jmh) {
				out.append("| ")
					.append(score.condition())
					.append(" | ")
					.append(Summary.num(score.nsPerEvent()))
					.append(" | ")
					.append(Summary.num(score.error()))
					.append(" | ")
					.append(Summary.num(score.min()))
					.append("–")
					.append(Summary.num(score.max()))
					.append(" | ")
					.append((score.nsPerEvent() <= 2000) ? "met" : "MISSED")
					.append(" |\n");
			}
		}
		return out.toString();
	}

	void write(Path directory) throws IOException {
		writeData(directory, "results");
		ImageIO.write(chart(), "png", directory.resolve("results.png").toFile());
		Files.writeString(directory.resolve("results.md"), table());
	}

	/**
	 * Write every statistic, ratio and repetition's value as {@code name.json} and
	 * {@code name.csv}.
	 * @param directory where
	 * @param name the files' name
	 * @throws IOException on failure to write
	 */
	void writeData(Path directory, String name) throws IOException {
		Files.createDirectories(directory);
		Files.writeString(directory.resolve(name + ".json"), json());
		Files.writeString(directory.resolve(name + ".csv"), csv());
	}

	private String json() {
		Map<String, Object> root = new LinkedHashMap<>();
		root.put("context", this.context);
		root.put("subjects", this.legend);
		root.put("stats", this.summary.stats().stream().map(Report::map).toList());
		root.put("ratios", this.summary.ratios().stream().map((r) -> {
			Map<String, Object> m = map(r.stat());
			m.put("target", Double.isNaN(r.target()) ? null : r.target());
			m.put("verdict", r.verdict());
			return m;
		}).toList());
		root.put("jmh", this.jmh.stream().map((s) -> {
			Map<String, Object> m = new LinkedHashMap<>();
			m.put("condition", s.condition());
			m.put("ns_per_event", s.nsPerEvent());
			m.put("error_99_9", s.error());
			m.put("min", s.min());
			m.put("max", s.max());
			return m;
		}).toList());
		// every repetition's value, so that the summary can be recomputed
		root.put("measurements", this.summary.measurements().stream().map((m) -> {
			Map<String, Object> row = new LinkedHashMap<>();
			row.put("size", m.size());
			row.put("subject", m.subject());
			row.put("repetition", m.repetition());
			row.put("metric", m.metric());
			row.put("value", finite(m.value()));
			return row;
		}).toList());
		return new KubernetesSerialization().asJson(root);
	}

	private static Map<String, Object> map(Summary.Stat stat) {
		Map<String, Object> m = new LinkedHashMap<>();
		m.put("size", stat.size());
		m.put("subject", stat.subject());
		m.put("metric", stat.metric());
		m.put("median", finite(stat.median()));
		m.put("min", finite(stat.min()));
		m.put("max", finite(stat.max()));
		m.put("n", stat.n());
		return m;
	}

	private static Object finite(double value) {
		return Double.isFinite(value) ? value : null;
	}

	private String csv() {
		StringBuilder out = new StringBuilder("kind,size,subject,metric,median,min,max,n,target,verdict\n");
		for (Summary.Stat s : this.summary.stats()) {
			out.append(String.format("value,%d,%s,%s,%s,%s,%s,%d,,%n", s.size(), s.subject(), s.metric(), s.median(),
					s.min(), s.max(), s.n()));
		}
		for (Summary.Ratio r : this.summary.ratios()) {
			Summary.Stat s = r.stat();
			out.append(String.format("ratio,%d,%s,%s,%s,%s,%s,%d,%s,%s%n", s.size(), s.subject(), s.metric(),
					s.median(), s.min(), s.max(), s.n(), Double.isNaN(r.target()) ? "" : r.target(), r.verdict()));
		}
		for (PublishJmh.Score s : this.jmh) {
			out.append(String.format("jmh,0,publish-%s,%s,%s,%s,%s,,2000,%s%n", s.condition(),
					Measurement.PUBLISH_NS_PER_EVENT, s.nsPerEvent(), s.min(), s.max(),
					(s.nsPerEvent() <= 2000) ? "met" : "MISSED"));
		}
		return out.toString();
	}

	/**
	 * Four panels: initial sync of the largest workload, stream throughput, latency
	 * p50/p99, sync CPU of the largest workload; bars are medians, whiskers min–max.
	 */
	BufferedImage chart() {
		int width = 1400;
		int height = 900;
		BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
		Graphics2D g = image.createGraphics();
		g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
		g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
		g.setColor(Color.WHITE);
		g.fillRect(0, 0, width, height);
		g.setColor(Color.BLACK);
		g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
		g.drawString("informer starter vs raw fabric8 — " + this.context.getOrDefault("server", ""), 20, 28);
		List<String> ids = List.copyOf(this.legend.keySet());
		List<Integer> sizes = this.summary.sizes();
		int largest = sizes.isEmpty() ? 0 : sizes.get(sizes.size() - 1);
		int smallest = sizes.isEmpty() ? 0 : sizes.get(0);
		panel(g, 20, 50, 670, 400, "initial sync of " + largest + " objects (ms, lower is better)", ids,
				List.of(Measurement.SYNC_MS), largest);
		// the decode floor is two orders of magnitude
		// faster: it would flatten the other bars
		Summary.Stat floor = this.summary.get(smallest, Harness.DECODE, Measurement.STREAM_EVENTS_PER_S);
		panel(g, 710, 50, 670, 400,
				"update stream delivered (events/s)"
						+ ((floor != null) ? "; (d) decodes " + Summary.num(floor.median()) + "/s, off scale" : ""),
				ids.stream().filter((id) -> !Harness.DECODE.equals(id)).toList(),
				List.of(Measurement.STREAM_EVENTS_PER_S), smallest);
		panel(g, 20, 480, 670, 400, "write issued → listener ran (ms): p50, p99", ids,
				List.of(Measurement.LATENCY_P50_MS, Measurement.LATENCY_P99_MS), smallest);
		panel(g, 710, 480, 670, 400, "sync CPU of " + largest + " objects (ms, this JVM's, lower is better)", ids,
				List.of(Measurement.SYNC_CPU_MS), largest);
		g.dispose();
		return image;
	}

	private void panel(Graphics2D g, int x, int y, int w, int h, String title, List<String> ids, List<String> metrics,
			int size) {
		g.setColor(Color.BLACK);
		g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
		g.drawString(title, x + 10, y + 18);
		int left = x + 70;
		int bottom = y + h - 40;
		int top = y + 40;
		double max = 0;
		for (String id : ids) {
			for (String metric : metrics) {
				Summary.Stat stat = this.summary.get(size, id, metric);
				if (stat != null && Double.isFinite(stat.max())) {
					max = Math.max(max, stat.max());
				}
			}
		}
		if (max <= 0) {
			max = 1;
		}
		max *= 1.1;
		g.setColor(Color.GRAY);
		g.drawLine(left, top, left, bottom);
		g.drawLine(left, bottom, x + w - 10, bottom);
		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
		for (int tick = 0; tick <= 4; tick++) {
			double value = max * tick / 4;
			int ty = bottom - (int) ((bottom - top) * tick / 4.0);
			g.setColor(new Color(0xDDDDDD));
			g.drawLine(left + 1, ty, x + w - 10, ty);
			g.setColor(Color.DARK_GRAY);
			g.drawString(Summary.num(value), x + 5, ty + 4);
		}
		int groupWidth = (x + w - 10 - left) / Math.max(1, ids.size());
		int barWidth = Math.max(8, (groupWidth - 20) / metrics.size());
		for (int i = 0; i < ids.size(); i++) {
			int gx = left + i * groupWidth + 10;
			for (int j = 0; j < metrics.size(); j++) {
				Summary.Stat stat = this.summary.get(size, ids.get(i), metrics.get(j));
				int bx = gx + j * barWidth;
				if (stat != null && Double.isFinite(stat.median())) {
					int bh = (int) ((bottom - top) * Math.max(0, stat.median()) / max);
					g.setColor(COLORS[(metrics.size() > 1) ? j : i % COLORS.length]);
					g.fillRect(bx, bottom - bh, barWidth - 4, bh);
					g.setColor(Color.BLACK);
					g.setStroke(new BasicStroke(1.5f));
					int cx = bx + (barWidth - 4) / 2;
					int ymin = bottom - (int) ((bottom - top) * Math.max(0, stat.min()) / max);
					int ymax = bottom - (int) ((bottom - top) * Math.max(0, stat.max()) / max);
					g.drawLine(cx, ymin, cx, ymax);
					g.drawLine(cx - 4, ymin, cx + 4, ymin);
					g.drawLine(cx - 4, ymax, cx + 4, ymax);
					g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
					g.drawString(Summary.num(stat.median()), bx, Math.min(ymax, bottom - bh) - 3);
				}
			}
			g.setColor(Color.BLACK);
			g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
			g.drawString("(" + ids.get(i) + ")", gx + groupWidth / 2 - 20, bottom + 18);
		}
		if (metrics.size() > 1) {
			for (int j = 0; j < metrics.size(); j++) {
				g.setColor(COLORS[j]);
				g.fillRect(x + w - 190, y + 30 + j * 16, 10, 10);
				g.setColor(Color.BLACK);
				g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
				g.drawString(metrics.get(j), x + w - 175, y + 39 + j * 16);
			}
		}
	}

}
