package dev.informer.benchmarks;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.informer.benchmarks.ColdStartJvm.Archive;

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
	void warmSyncsAfterTheColdOneGiveTheirMedians() {
		Map<String, Double> sample = ColdStartBenchmark.parse("""
				COLD-START synced_ms=3000.0 time_to_sync_ms=1500.0 cpu_ms=4000.0 cached=10
				COLD-START-WARM time_to_sync_ms=400.0 cpu_ms=300.0 cached=10
				COLD-START-WARM time_to_sync_ms=200.0 cpu_ms=500.0 cached=10
				COLD-START-WARM time_to_sync_ms=300.0 cpu_ms=100.0 cached=10
				""");
		assertThat(sample).containsEntry("time_to_sync_ms", 1500.0)
			.containsEntry("warm_sync_ms", 300.0)
			.containsEntry("warm_cpu_ms", 300.0);
		assertThat(ColdStartBenchmark.parse("COLD-START synced_ms=1.0 cached=1\n")).doesNotContainKey("warm_sync_ms");
	}

	@Test
	void aFailedProcessYieldsNoTimes() {
		assertThat(ColdStartBenchmark.parse("COLD-START error=not-synced added=12\n")).containsOnlyKeys("added");
		assertThat(ColdStartBenchmark.parse("Traceback (most recent call last):\n")).isEmpty();
	}

	@Test
	void withoutAJdk25ItsSubjectsAreSkippedWithTheReason() {
		List<String> skipped = new ArrayList<>();
		Map<String, ColdStartJvm> jvms = ColdStartBenchmark.jvms(this.output.resolve("no-jdk"), skipped);
		assertThat(jvms).containsOnlyKeys("a", "a-boot", "b", "b-meta", "c", "b-cds", "b-cds-refresh");
		assertThat(skipped).singleElement().asString().contains("no JDK 25").contains("--jdk25=");
	}

	@Test
	void trainingWritesTheArchiveAndEveryLaunchInsistsOnIt() {
		Path archive = this.output.resolve("b.jsa");
		ColdStartJvm cds = new ColdStartJvm("b-cds", ColdStartProcesses.Starter.class, this.output, Archive.CDS);
		assertThat(cds.trainingOptions(archive)).containsExactly("-XX:ArchiveClassesAtExit=" + archive);
		assertThat(cds.launchOptions(archive)).containsExactly("-XX:SharedArchiveFile=" + archive, "-Xshare:on");
		ColdStartJvm aot = new ColdStartJvm("b-25-aot-refresh", ColdStartProcesses.Starter.class, this.output,
				Archive.AOT_CACHE, true);
		assertThat(aot.trainingOptions(archive)).containsExactly("-XX:AOTCacheOutput=" + archive,
				"-Dspring.context.exit=onRefresh");
		assertThat(aot.launchOptions(archive)).containsExactly("-XX:AOTCache=" + archive, "-XX:AOTMode=on");
	}

	@Test
	void directoriesOnTheClassPathArePackedIntoJars() throws Exception {
		Path classes = Files.createDirectories(this.output.resolve("classes").resolve("dev"));
		Files.writeString(classes.resolve("A.class"), "bytes");
		String classPath = ColdStartJvm.jarsOnly(classes.getParent() + File.pathSeparator + "/libs/x.jar",
				this.output.resolve("jars"));
		String[] entries = classPath.split(File.pathSeparator);
		assertThat(entries).hasSize(2);
		assertThat(entries[0]).endsWith(".jar");
		assertThat(entries[1]).isEqualTo("/libs/x.jar");
		try (JarFile jar = new JarFile(entries[0])) {
			assertThat(jar.getEntry("dev/")).isNotNull();
			assertThat(new String(jar.getInputStream(jar.getEntry("dev/A.class")).readAllBytes())).isEqualTo("bytes");
		}
	}

}
