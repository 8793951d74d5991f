package dev.informer.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Marks a test of this project that needs the real kube-apiserver: skipped where its
 * binaries are not installed, unless {@code INFORMER_REQUIRE_APISERVER=true} (CI), where
 * the test runs and fails with the message {@code @InformerTest(server = REAL)} gives
 * users. Users' tests do not skip: {@link InformerTest.Server#REAL} without binaries
 * fails.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(RequiresRealServer.Condition.class)
public @interface RequiresRealServer {

	/**
	 * The environment variable that turns a missing server into a failure.
	 */
	String REQUIRE = "INFORMER_REQUIRE_APISERVER";

	/**
	 * Skips when the binaries are missing and the environment does not require them.
	 */
	final class Condition implements ExecutionCondition {

		@Override
		public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
			if (RealApiServer.isInstalled()) {
				return ConditionEvaluationResult.enabled("kube-apiserver binaries are installed");
			}
			if (Boolean.parseBoolean(System.getenv(REQUIRE))) {
				return ConditionEvaluationResult.enabled(REQUIRE + "=true: runs, and fails without binaries");
			}
			return ConditionEvaluationResult.disabled("No kube-apiserver binaries (build them with "
					+ "'bash scripts/envtest.sh'); set " + REQUIRE + "=true to fail instead of skipping");
		}

	}

}
