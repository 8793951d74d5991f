package dev.informer.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the cold-start benchmark reads what its processes print: the Python seed and the
 * JVMs print the same {@code COLD-START key=value} line among their logs.
 */
class ColdStartBenchmarkTests {

	@TempDir
	Path output;

	@Test
	void onTheMockServerTheRunSaysWhyItMeasuredNothing() throws Exception {
		String report = ColdStartBenchmark.run(Options.parse("--cold-start", "--mock", "--output=" + this.output));
		assertThat(report).startsWith("SKIPPED").contains("real API server");
		assertThat(Files.readString(this.output.resolve("cold-start.md"))).isEqualTo(report);
	}

	@Test
	void aSeedThatCannotBeInstalledIsSkippedWithTheReason() throws Exception {
		Path notADirectory = Files.writeString(this.output.resolve("file"), "");
		SeedPython seed = SeedPython.install(notADirectory.resolve("venv"));
		assertThat(seed.available()).isFalse();
		assertThat(seed.status()).startsWith("SKIPPED: the Python client could not be installed (")
			.contains("cold-start rows of (s)");
	}

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
