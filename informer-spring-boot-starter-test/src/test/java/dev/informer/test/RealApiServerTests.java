package dev.informer.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for how {@link RealApiServer} finds its binaries.
 */
class RealApiServerTests {

	@TempDir
	Path root;

	@Test
	void findsTheNewestCompleteInstallation() throws IOException {
		install("1.9.0", "kube-apiserver", "etcd", "kubectl");
		install("1.37.2", "kube-apiserver", "etcd", "kubectl");
		install("1.38.0", "kube-apiserver", "etcd");
		assertThat(RealApiServer.installedVersion(this.root)).contains("1.37.2");
	}

	@Test
	void failsWithWhatToRunWhenBinariesAreMissing() {
		assertThat(RealApiServer.installedVersion(this.root)).isEmpty();
		assertThatIllegalStateException().isThrownBy(() -> RealApiServer.start(this.root))
			.withMessageContaining(this.root.resolve("k8s").toString())
			.withMessageContaining("scripts/envtest.sh")
			.withMessageContaining("informer.test.server=mock");
	}

	private void install(String version, String... binaries) throws IOException {
		Path dir = Files.createDirectories(this.root.resolve("k8s").resolve(version + "-linux-amd64"));
		for (String binary : binaries) {
			Files.createFile(dir.resolve(binary),
					PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
		}
	}

}
