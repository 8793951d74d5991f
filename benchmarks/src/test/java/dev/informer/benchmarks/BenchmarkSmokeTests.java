package dev.informer.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the whole harness in smoke mode (mock server, tiny workload, JMH in-process) so
 * that it cannot rot. Asserts that every subject produced every measurement and that the
 * files exist; never a time threshold.
 */
class BenchmarkSmokeTests {

	@TempDir
	Path output;

	@Test
	void smokeRunMeasuresEverySubjectAndWritesTheReport() throws Exception {
		System.setProperty("java.awt.headless", "true");
		Report report = BenchmarkMain.run(Options.parse("--smoke", "--output=" + this.output));
		String table = report.table();
		assertThat(table).contains("MOCK API server")
			.contains("| 100 | a |")
			.contains("| 100 | b |")
			.contains("| 100 | b-keep |")
			.contains("| 100 | b-meta |")
			.contains("| 100 | c |")
			.contains("| 100 | d |")
			.contains("b/a")
			.contains("c/a")
			.contains("a/d")
			.contains("| none (starter's adapter) |")
			.contains("| spel (starter's adapter) |")
			.contains("| none (Spring's adapter) |")
			.contains("| spel (Spring's adapter) |");
		for (String file : new String[] { "results.json", "results.csv", "results.md" }) {
			assertThat(this.output.resolve(file)).isNotEmptyFile();
		}
		assertThat(Files.readString(this.output.resolve("results.csv"))).contains("ratio,100,b/a,sync_ms")
			.contains("ratio,100,b/a,sync_cpu_ms")
			.contains("value,100,c,latency_p99_ms")
			.contains("value,100,d,heap_bytes_per_object");
		assertThat(ImageIO.read(this.output.resolve("results.png").toFile()).getWidth()).isEqualTo(1400);
	}

}
