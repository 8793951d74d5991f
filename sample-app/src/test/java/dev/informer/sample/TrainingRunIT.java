package dev.informer.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The training run of the sample's container build, as Spring Boot documents class data
 * sharing and as buildpacks run it ({@code BP_JVM_CDS_ENABLED};
 * {@code BP_JVM_AOTCACHE_ENABLED} trains the same way on JDK 25): the jar extracted, a
 * training run with {@code -Dspring.context.exit=onRefresh} in a build without a cluster,
 * then a start from the archive it wrote. Runs the packaged jar, so it is an integration
 * test.
 */
class TrainingRunIT {

	@TempDir
	Path work;

	private final Map<Process, Path> outputs = new HashMap<>();

	@Test
	void theTrainingRunNeedsNoClusterAndWritesAnArchiveTheApplicationStartsFrom() throws Exception {
		Path extracted = this.work.resolve("application");
		Process extract = run(this.work, "-Djarmode=tools", "-jar", packagedJar().toString(), "extract",
				"--destination", extracted.toString());
		assertThat(extract.exitValue()).as(output(extract)).isZero();
		Path jar;
		try (Stream<Path> files = Files.list(extracted)) {
			jar = files.filter((file) -> file.toString().endsWith(".jar")).findFirst().orElseThrow();
		}
		Path archive = this.work.resolve("application.jsa");

		Process training = run(extracted, "-XX:ArchiveClassesAtExit=" + archive, "-Dspring.context.exit=onRefresh",
				"-jar", jar.toString(), "--server.port=0");
		String trainingOutput = output(training);
		assertThat(training.exitValue()).as(trainingOutput).isZero();
		assertThat(trainingOutput).contains("Training run (spring.context.exit=onRefresh)")
			.doesNotContain("DEMO MODE")
			.doesNotContain("APPLICATION FAILED TO START");
		assertThat(archive).isNotEmptyFile();

		// -Xshare:on: a JVM that cannot map the archive fails instead of starting without
		Process fromArchive = run(extracted, "-XX:SharedArchiveFile=" + archive, "-Xshare:on",
				"-Dspring.context.exit=onRefresh", "-jar", jar.toString(), "--server.port=0");
		assertThat(fromArchive.exitValue()).as(output(fromArchive)).isZero();
	}

	private Process run(Path directory, String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(List.of(arguments));
		Path output = Files.createTempFile(this.work, "process", ".log");
		ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(output.toFile());
		// as in an image build: no kubeconfig, not in a cluster
		builder.environment().put("KUBECONFIG", this.work.resolve("no-kubeconfig").toString());
		builder.environment().remove("KUBERNETES_SERVICE_HOST");
		builder.environment().remove("KUBERNETES_SERVICE_PORT");
		builder.environment().remove("DEMO");
		builder.environment().remove("JAVA_TOOL_OPTIONS");
		Process process = builder.start();
		if (!process.waitFor(3, TimeUnit.MINUTES)) {
			process.destroyForcibly();
			throw new IllegalStateException(command + " did not end within 3 minutes:\n" + Files.readString(output));
		}
		this.outputs.put(process, output);
		return process;
	}

	private String output(Process process) throws IOException {
		return Files.readString(this.outputs.get(process), StandardCharsets.UTF_8);
	}

	private static Path packagedJar() throws IOException {
		try (Stream<Path> files = Files.list(Path.of("target").toAbsolutePath())) {
			return files.filter((file) -> file.getFileName().toString().matches("sample-app-.*\\.jar"))
				.filter((file) -> !file.getFileName().toString().endsWith("-plain.jar"))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("No packaged sample-app jar under target/"));
		}
	}

}
