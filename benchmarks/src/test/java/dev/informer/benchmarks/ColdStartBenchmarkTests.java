package dev.informer.benchmarks;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the cold-start benchmark reads what its processes print: the Python seed and the
 * JVMs print the same {@code COLD-START key=value} line among their logs.
 */
class ColdStartBenchmarkTests {

	@Test
	void readsTheLastReportLineAmongLogs() {
		Map<String, Double> sample = ColdStartBenchmark.parse("""
				WARN some library logged this
				COLD-START synced_ms=1.0 cached=1
				COLD-START launched=1796119655.666484 synced_ms=1623.6 cpu_ms=1547.2 cached=10000
				""");
		assertThat(sample).containsEntry("synced_ms", 1623.6)
			.containsEntry("cpu_ms", 1547.2)
			.containsEntry("cached", 10000.0)
			.containsEntry("launched", 1796119655.666484);
	}

	@Test
	void aFailedProcessYieldsNoTimes() {
		assertThat(ColdStartBenchmark.parse("COLD-START error=not-synced added=12\n")).containsOnlyKeys("added");
		assertThat(ColdStartBenchmark.parse("Traceback (most recent call last):\n")).isEmpty();
	}

}
