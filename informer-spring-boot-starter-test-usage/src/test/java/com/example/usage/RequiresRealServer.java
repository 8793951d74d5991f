package com.example.usage;

import java.io.IOException;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The informer project's rule for its own real-server tests, not something a user needs:
 * skipped where the kube-apiserver binaries are not installed (in
 * {@code ~/.kubeapitest/k8s}, or {@code $KUBEAPITEST_DIR/k8s}), unless
 * {@code INFORMER_REQUIRE_APISERVER=true}, where the test runs and fails with the test
 * starter's message.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(RequiresRealServer.Condition.class)
@interface RequiresRealServer {

	/**
	 * The binaries the test needs; the control plane of {@code Server.CLUSTER} needs
	 * more.
	 * @return the binaries
	 */
	String[] binaries() default { "kube-apiserver", "etcd", "kubectl" };

	/**
	 * Skips when the binaries are missing and the environment does not require them.
	 */
	final class Condition implements ExecutionCondition {

		private static final String REQUIRE = "INFORMER_REQUIRE_APISERVER";

		@Override
		public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
			String[] binaries = AnnotationSupport.findAnnotation(context.getElement(), RequiresRealServer.class)
				.map(RequiresRealServer::binaries)
				.orElse(new String[] { "kube-apiserver", "etcd", "kubectl" });
			if (installed(binaries)) {
				return ConditionEvaluationResult.enabled("kube-apiserver binaries are installed");
			}
			if (Boolean.parseBoolean(System.getenv(REQUIRE))) {
				return ConditionEvaluationResult.enabled(REQUIRE + "=true: runs, and fails without binaries");
			}
			return ConditionEvaluationResult.disabled("No kube-apiserver binaries (build them with "
					+ "'bash scripts/envtest.sh'); set " + REQUIRE + "=true to fail instead of skipping");
		}

		private static boolean installed(String[] binaries) {
			String dir = System.getenv("KUBEAPITEST_DIR");
			Path root = (dir != null && !dir.isBlank()) ? Path.of(dir)
					: Path.of(System.getProperty("user.home"), ".kubeapitest");
			Path k8s = root.resolve("k8s");
			if (!Files.isDirectory(k8s)) {
				return false;
			}
			try (Stream<Path> versions = Files.list(k8s)) {
				return versions.anyMatch((version) -> Stream.of(binaries)
					.allMatch((binary) -> Files.isExecutable(version.resolve(binary))));
			}
			catch (IOException ex) {
				return false;
			}
		}

	}

}
