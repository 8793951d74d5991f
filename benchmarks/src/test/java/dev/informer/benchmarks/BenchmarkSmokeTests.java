package dev.informer.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the whole harness in smoke mode (mock server, tiny workload, JMH in-process) so
 * that it cannot rot, and the per-process benchmark on 50 objects (the real API server
 * when its binaries exist, else the mock server, which serves only fabric8's subjects).
 * Asserts that every subject produced every measurement, or is reported as skipped with
 * its reason, and that the files exist; never a time threshold.
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
			.contains("value,100,d,cpu_us_per_event")
			// subtracting in a shared JVM could come out negative: per process only
			.doesNotContain("heap_bytes_per_object")
			.doesNotContain("value,100,a,cpu_us_per_event");
		assertThat(ImageIO.read(this.output.resolve("results.png").toFile()).getWidth()).isEqualTo(1400);
	}

	@Test
	void perProcessSmokeRunMeasuresEverySubjectInAProcessOfItsOwn() throws Exception {
		String markdown = PerProcessBenchmark.run(Options.parse("--per-process", "--smoke", "--output=" + this.output));
		boolean real = markdown.contains("real kube-apiserver");
		// subject -> metric -> median, from the CSV
		Map<String, Map<String, Double>> values = new HashMap<>();
		for (String line : Files.readAllLines(this.output.resolve("per-process.csv"))) {
			String[] f = line.split(",");
			if (f[0].equals("value") && f[1].equals("50")) {
				values.computeIfAbsent(f[2], (k) -> new HashMap<>()).put(f[3], Double.valueOf(f[4]));
			}
		}
		for (String id : PerProcessBenchmark.SUBJECTS) {
			if (markdown.contains("- (" + id + ") SKIPPED")) {
				continue;
			}
			assertThat(values.get(id)).as(id)
				.containsKeys("cold_sync_ms", "cold_sync_cpu_ms", "warm_sync_ms", "warm_sync_cpu_ms");
			if (!id.equals("floor-get")) {
				assertThat(values.get(id)).as(id).containsKey("heap_bytes_per_object");
			}
		}
		List<String> streaming = real ? PerProcessBenchmark.STREAM_SUBJECTS : List.of("a", "b");
		for (String id : streaming) {
			if (markdown.contains("- (" + id + ") SKIPPED")) {
				continue;
			}
			assertThat(values.get(id)).as(id).containsKeys("stream_cpu_us_per_event", "stream_wakeups_per_event");
			// every measured event, counted by the subject
			assertThat(values.get(id)).as(id).containsEntry("stream_received", 100.0);
		}
		assertThat(values.get("a")).containsKey("heap_model_bytes_per_object");
		assertThat(values.get("stream")).containsKeys("writer_rate", "writer_cpu_us_per_patch");
		assertThat(Files.readString(this.output.resolve("per-process.csv"))).contains("ratio,50,b/a,cold_sync_ms")
			.contains("ratio,50,b/floor-get,warm_sync_ms")
			.contains("ratio,50,b/a,stream_cpu_us_per_event");
		assertThat(markdown).contains("| 50 | warm_sync_ms | b/floor-get |");
		assertThat(this.output.resolve("per-process.json")).isNotEmptyFile();
		// the README's table: one row per measurement, the starter's ratios filled in
		assertThat(Files.readString(this.output.resolve("per-process-summary.md")))
			.contains("| 50: informer start → synced, warm |")
			.containsPattern("\\| CPU per watch event, after [\\d,]+ events of warm-up \\|.* µs \\|.* × \\|")
			.doesNotContain("n/a");
	}

	/**
	 * The start benchmark on 50 objects, one repetition, no CPU limit: the seed, the
	 * starter on JDK 17 and, where JDK 25 is installed, on JDK 25 with an AOT cache and
	 * Spring AOT (a training run first), then the stream. On the mock server it reports
	 * itself skipped, as it needs processes that speak to a real one.
	 */
	@Test
	void startSmokeRunLaunchesEachSubjectAndMeasuresTheStream() throws Exception {
		String markdown = StartBenchmark.run(Options.parse("--start", "--smoke", "--limits=none",
				"--subjects=s,b-17,b-25-aot-saot", "--output=" + this.output));
		if (markdown.startsWith("SKIPPED")) {
			assertThat(Boolean.parseBoolean(System.getenv("INFORMER_REQUIRE_APISERVER"))).as(markdown).isFalse();
			return;
		}
		Map<String, Map<String, Double>> values = new HashMap<>();
		for (String line : Files.readAllLines(this.output.resolve("start.csv"))) {
			String[] f = line.split(",");
			if (f[0].equals("value") && f[1].equals("50")) {
				values.computeIfAbsent(f[2], (k) -> new HashMap<>()).put(f[3], Double.valueOf(f[4]));
			}
		}
		for (String id : List.of("s", "b-17", "b-25-aot-saot")) {
			if (markdown.contains("(" + id + ") SKIPPED")
					|| (id.startsWith("b-25") && markdown.contains("SKIPPED: the JDK 25"))) {
				continue;
			}
			assertThat(values.get(id)).as(id)
				.containsKeys(StartBenchmark.LAUNCH_TO_SYNCED, StartBenchmark.LAUNCH_TO_MAIN,
						StartBenchmark.MAIN_TO_INFORMER, StartBenchmark.INFORMER_TO_SYNCED,
						StartBenchmark.CPU_TO_SYNCED, StartBenchmark.CPU_SYNC, StartBenchmark.STREAM_CPU)
				// every measured event, counted by the subject
				.containsEntry(StartBenchmark.STREAM_RECEIVED, 100.0);
			if (id.startsWith("b-")) {
				assertThat(values.get(id)).as(id).containsKey(StartBenchmark.THREAD_CPU + "jit");
			}
		}
		assertThat(markdown).contains("| b-17 |").contains("launch_to_synced_ms | b-17/s |");
		assertThat(this.output.resolve("start.json")).isNotEmptyFile();
	}

}
