package dev.informer.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.DoubleBinaryOperator;

/**
 * Medians with their spread (min to max over repetitions) of every measurement, and the
 * ratios between subjects, paired by repetition (the subjects of one repetition ran back
 * to back, so pairing cancels slow drift).
 */
final class Summary {

	/**
	 * One statistic.
	 *
	 * @param size the workload size
	 * @param subject the subject (or ratio name)
	 * @param metric the metric
	 * @param median the median
	 * @param min the lowest value
	 * @param max the highest value
	 * @param n the number of values
	 */
	record Stat(int size, String subject, String metric, double median, double min, double max, int n) {
	}

	/**
	 * A ratio between subjects with its target.
	 *
	 * @param stat the ratio's statistic; its subject is the ratio's name, e.g. "b/a"
	 * @param target the target (the ratio should be at most this), or NaN
	 */
	record Ratio(Stat stat, double target) {

		String verdict() {
			if (Double.isNaN(this.target)) {
				return "";
			}
			if (this.stat.median() <= this.target) {
				return (this.stat.max() <= this.target) ? "met" : "met (median; spread crosses)";
			}
			return (this.stat.min() <= this.target) ? "MISSED (median; spread crosses)" : "MISSED";
		}

	}

	private final List<Measurement> measurements;

	private final List<Stat> stats = new ArrayList<>();

	private final List<Ratio> ratios = new ArrayList<>();

	Summary(List<Measurement> input) {
		this(input, inJvmRatios());
	}

	/**
	 * Summarize measurements.
	 * @param input every repetition's values
	 * @param ratios the ratios to derive, paired per repetition, for every size
	 */
	Summary(List<Measurement> input, List<RatioSpec> ratios) {
		this.measurements = new ArrayList<>(input);
		Map<String, List<Measurement>> groups = new LinkedHashMap<>();
		for (Measurement m : this.measurements) {
			groups.computeIfAbsent(m.size() + "|" + m.subject() + "|" + m.metric(), (k) -> new ArrayList<>()).add(m);
		}
		groups.values().forEach((group) -> {
			Measurement first = group.get(0);
			this.stats.add(stat(first.size(), first.subject(), first.metric(),
					group.stream().mapToDouble(Measurement::value).toArray()));
		});
		deriveRatios(ratios);
	}

	private double find(int size, String subject, int rep, String metric) {
		return this.measurements.stream()
			.filter((m) -> m.size() == size && m.subject().equals(subject) && m.repetition() == rep
					&& m.metric().equals(metric))
			.mapToDouble(Measurement::value)
			.findFirst()
			.orElse(Double.NaN);
	}

	/**
	 * A ratio to derive for every size: {@code numerator/denominator} of one metric.
	 *
	 * @param metric the metric
	 * @param numerator the subject above
	 * @param denominator the subject below
	 * @param inverse whether the metric is a rate, so the ratio of costs is
	 * denominator/numerator
	 * @param target the most the ratio should be, or NaN
	 */
	record RatioSpec(String metric, String numerator, String denominator, boolean inverse, double target) {

		static RatioSpec cost(String metric, String numerator, String denominator) {
			return new RatioSpec(metric, numerator, denominator, false, Double.NaN);
		}

		static RatioSpec cost(String metric, String numerator, String denominator, double target) {
			return new RatioSpec(metric, numerator, denominator, false, target);
		}

	}

	/** The ratios of the in-JVM benchmark. */
	private static List<RatioSpec> inJvmRatios() {
		String sync = Measurement.SYNC_MS;
		String syncCpu = Measurement.SYNC_CPU_MS;
		String stream = Measurement.STREAM_EVENTS_PER_S;
		String p50 = Measurement.LATENCY_P50_MS;
		String p99 = Measurement.LATENCY_P99_MS;
		String d = Harness.DECODE;
		return List.of(RatioSpec.cost(sync, "b", "a", 1.05), RatioSpec.cost(sync, "c", "a", 1.15),
				RatioSpec.cost(sync, "a", d),
				// the client's share of the sync, without the API server's time on the
				// same cores
				RatioSpec.cost(syncCpu, "b", "a"), RatioSpec.cost(syncCpu, "c", "a"),
				RatioSpec.cost(syncCpu, "b-meta", "a", 0.3), RatioSpec.cost(sync, "b-wl", "b"),
				// throughput as a cost: time per delivered event
				new RatioSpec(stream, "b", "a", true, 1.05), new RatioSpec(stream, "c", "a", true, 1.15),
				new RatioSpec(stream, "a", d, true, Double.NaN), RatioSpec.cost(p50, "b", "a"),
				RatioSpec.cost(p50, "c", "a"), RatioSpec.cost(p99, "b", "a"), RatioSpec.cost(p99, "c", "a"));
	}

	private void deriveRatios(List<RatioSpec> specs) {
		DoubleBinaryOperator cost = (x, y) -> x / y;
		DoubleBinaryOperator inverse = (x, y) -> y / x;
		for (int size : this.measurements.stream()
			.mapToInt(Measurement::size)
			.distinct()
			.filter((s) -> s > 0)
			.toArray()) {
			for (RatioSpec spec : specs) {
				ratio(size, spec.metric(), spec.numerator(), spec.denominator(), spec.inverse() ? inverse : cost,
						spec.target());
			}
		}
	}

	private void ratio(int size, String metric, String numerator, String denominator, DoubleBinaryOperator op,
			double target) {
		List<Double> values = new ArrayList<>();
		for (int rep : this.measurements.stream().mapToInt(Measurement::repetition).distinct().toArray()) {
			double x = find(size, numerator, rep, metric);
			double y = find(size, denominator, rep, metric);
			if (!Double.isNaN(x) && !Double.isNaN(y) && y != 0 && x != 0) {
				values.add(op.applyAsDouble(x, y));
			}
		}
		if (!values.isEmpty()) {
			this.ratios.add(new Ratio(stat(size, numerator + "/" + denominator, metric,
					values.stream().mapToDouble(Double::doubleValue).toArray()), target));
		}
	}

	static Stat stat(int size, String subject, String metric, double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int n = sorted.length;
		double median = (n % 2 == 1) ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
		return new Stat(size, subject, metric, median, sorted[0], sorted[n - 1], n);
	}

	/**
	 * Every measurement, derived ones (heap per object) included.
	 * @return the measurements
	 */
	List<Measurement> measurements() {
		return this.measurements;
	}

	List<Stat> stats() {
		return this.stats;
	}

	List<Ratio> ratios() {
		return this.ratios;
	}

	Stat get(int size, String subject, String metric) {
		return this.stats.stream()
			.filter((s) -> s.size() == size && s.subject().equals(subject) && s.metric().equals(metric))
			.findFirst()
			.orElse(null);
	}

	/**
	 * A derived ratio.
	 * @param size the size
	 * @param metric the metric
	 * @param name the ratio, such as {@code b/a}
	 * @return the ratio, or {@code null} when one of the subjects has no value
	 */
	Ratio ratio(int size, String metric, String name) {
		return this.ratios.stream()
			.filter((r) -> r.stat().size() == size && r.stat().metric().equals(metric)
					&& r.stat().subject().equals(name))
			.findFirst()
			.orElse(null);
	}

	List<Integer> sizes() {
		return this.stats.stream().map(Stat::size).filter((s) -> s > 0).distinct().sorted().toList();
	}

	static String format(Stat stat) {
		return (stat == null) ? "-"
				: Objects.toString(num(stat.median())) + " [" + num(stat.min()) + "–" + num(stat.max()) + "]";
	}

	static String num(double value) {
		double abs = Math.abs(value);
		if (Double.isNaN(value)) {
			return "n/a";
		}
		if (abs >= 100) {
			return String.format("%,.0f", value);
		}
		if (abs >= 10) {
			return String.format("%.1f", value);
		}
		if (abs >= 1) {
			return String.format("%.2f", value);
		}
		return String.format("%.3f", value);
	}

}
