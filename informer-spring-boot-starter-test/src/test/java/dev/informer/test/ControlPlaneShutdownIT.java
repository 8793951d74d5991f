package dev.informer.test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A JVM that ends without closing its {@link ControlPlane}, as a test run that fails,
 * times out or is interrupted (SIGTERM) does, leaves none of the control plane's
 * processes behind: the JVM's shutdown hook kills them.
 */
class ControlPlaneShutdownIT {

	private static final String PIDS = "control-plane pids:";

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void aJvmThatEndsWithoutClosingTheControlPlaneLeavesNoProcessBehind() throws Exception {
		if (!ControlPlane.isInstalled() && !Boolean.parseBoolean(System.getenv(RequiresRealServer.REQUIRE))) {
			Assumptions.abort("No control-plane binaries (build them with 'bash scripts/envtest.sh')");
		}
		Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), Child.class.getName())
			.redirectErrorStream(true)
			.start();
		try {
			List<Long> pids = awaitPids(jvm);
			assertThat(pids).as("etcd, two kube-apiservers, controller manager, scheduler, kwok").hasSize(6);
			assertThat(pids).allMatch((pid) -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
			// SIGTERM, as Maven's fork timeout or a CI runner's cancel sends
			jvm.destroy();
			assertThat(jvm.waitFor(60, TimeUnit.SECONDS)).as("the JVM exited").isTrue();
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(pids).as("processes still alive")
					.noneMatch((pid) -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)));
		}
		finally {
			jvm.destroyForcibly();
		}
	}

	private static List<Long> awaitPids(Process jvm) throws IOException {
		BufferedReader output = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
		StringBuilder seen = new StringBuilder();
		String line;
		while ((line = output.readLine()) != null) {
			if (line.startsWith(PIDS)) {
				// keep draining, so the child never blocks on a full pipe
				Thread drain = new Thread(() -> output.lines().forEach((ignored) -> {
				}), "control-plane-child-output");
				drain.setDaemon(true);
				drain.start();
				return Arrays.stream(line.substring(PIDS.length()).trim().split(" ")).map(Long::valueOf).toList();
			}
			seen.append(line).append('\n');
		}
		throw new IllegalStateException("The child JVM ended before starting a control plane:\n" + seen);
	}

	/**
	 * Starts a control plane, prints its processes and waits to be ended.
	 */
	static final class Child {

		public static void main(String[] args) throws Exception {
			ControlPlane controlPlane = ControlPlane.start(1);
			System.out.println(
					PIDS + " " + String.join(" ", controlPlane.processIds().stream().map(String::valueOf).toList()));
			System.out.flush();
			Thread.currentThread().join();
		}

	}

}
