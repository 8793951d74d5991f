package dev.informer.benchmarks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link PublishBenchmark} through JMH's API: forked and with proper iterations in
 * the full run, in-process and brief in the smoke run (whose number only proves the
 * harness works).
 */
final class PublishJmh {

	private PublishJmh() {
	}

	/**
	 * One JMH score.
	 *
	 * @param condition the benchmark's condition parameter
	 * @param nsPerEvent the mean in ns per event
	 * @param error the 99.9% confidence half-width
	 * @param min the lowest iteration
	 * @param max the highest iteration
	 */
	record Score(String condition, double nsPerEvent, double error, double min, double max) {
	}

	static List<Score> run(boolean smoke) throws RunnerException {
		ChainedOptionsBuilder builder = new OptionsBuilder().include(PublishBenchmark.class.getName() + ".publish")
			.shouldFailOnError(true);
		if (smoke) {
			builder.forks(0)
				.warmupIterations(1)
				.warmupTime(TimeValue.milliseconds(200))
				.measurementIterations(2)
				.measurementTime(TimeValue.milliseconds(200));
		}
		else {
			builder.forks(2)
				.jvmArgs("-Xms1g", "-Xmx1g")
				.warmupIterations(5)
				.warmupTime(TimeValue.seconds(1))
				.measurementIterations(5)
				.measurementTime(TimeValue.seconds(1));
		}
		Collection<RunResult> results = new Runner(builder.build()).run();
		List<Score> scores = new ArrayList<>();
		for (RunResult result : results) {
			var primary = result.getPrimaryResult();
			var statistics = primary.getStatistics();
			double error = Double.isNaN(primary.getScoreError()) ? 0 : primary.getScoreError();
			// which adapter: the starter's (informer.events.compile-conditions, the
			// default) or Spring's own
			String adapter = Boolean.parseBoolean(result.getParams().getParam("compileConditions"))
					? "starter's adapter" : "Spring's adapter";
			scores.add(new Score(result.getParams().getParam("condition") + " (" + adapter + ")", primary.getScore(),
					error, statistics.getMin(), statistics.getMax()));
		}
		return scores;
	}

}
