package dev.informer.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jar {@code spring-boot:repackage} builds, what a user deploys, carries no test
 * server: neither fabric8's mock API server nor kube-api-test's etcd and kube-apiserver
 * launcher, nor the test starter or a test framework. Demo mode, which needs them, lives
 * in {@code src/test} ({@link TestSampleApplication}). Reads the packaged jar, so it is
 * an integration test.
 */
class PackagedJarIT {

	/** Jars of test servers and test frameworks, by the start of their file names. */
	private static final List<String> TEST_ONLY = List.of("kubernetes-server-mock-", "mockwebserver-", "kube-api-test-",
			"informer-spring-boot-starter-test-", "spring-boot-test-", "junit-", "mockito-", "assertj-", "awaitility-",
			"testcontainers-");

	@Test
	void theProductionJarHoldsNoTestServerAndNoTestLibrary() throws IOException {
		List<String> libraries = libraries(packagedJar());
		// the jar is the repackaged one and its libraries are where the check looks
		assertThat(libraries).anyMatch((name) -> name.startsWith("informer-spring-boot-autoconfigure-"))
			.anyMatch((name) -> name.startsWith("kubernetes-client-"));
		assertThat(libraries).noneMatch((name) -> TEST_ONLY.stream().anyMatch(name::startsWith));
		try (JarFile jar = new JarFile(packagedJar().toFile())) {
			assertThat(Collections.list(jar.entries())).extracting(ZipEntry::getName)
				.noneMatch((name) -> name.contains("dev/informer/sample/Demo"));
		}
	}

	private static List<String> libraries(Path jar) throws IOException {
		try (JarFile file = new JarFile(jar.toFile())) {
			return Collections.list(file.entries())
				.stream()
				.map(ZipEntry::getName)
				.filter((name) -> name.startsWith("BOOT-INF/lib/"))
				.map((name) -> name.substring("BOOT-INF/lib/".length()))
				.toList();
		}
	}

	static Path packagedJar() throws IOException {
		try (Stream<Path> files = Files.list(Path.of("target").toAbsolutePath())) {
			return files.filter((file) -> file.getFileName().toString().matches("sample-app-.*\\.jar"))
				.filter((file) -> !file.getFileName().toString().matches(".*-(plain|sources|javadoc)\\.jar"))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("No packaged sample-app jar under target/"));
		}
	}

}
