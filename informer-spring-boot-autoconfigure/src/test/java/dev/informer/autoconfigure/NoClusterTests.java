package dev.informer.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.InformerStartupException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without a cluster (no kubeconfig, not in a pod), startup fails with one sentence that
 * says what was tried (the kubeconfig path, the in-cluster service account) and what to
 * do, not with fabric8's "An error has occurred."
 */
class NoClusterTests {

	private static final String KUBECONFIG = "/nonexistent/informer/kubeconfig";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
		// fabric8's own settings, read when the starter creates its client: no
		// kubeconfig, and no retries of the failed connection
		.withSystemProperties("kubeconfig=" + KUBECONFIG, "kubernetes.request.retry.backoffLimit=0")
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap");

	@Test
	void aMissingClusterSaysWhatWasTriedAndWhatToDo() {
		this.runner.run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new InformerStartupFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
			assertThat(analysis.getCause()).isInstanceOf(InformerStartupException.class);
			assertThat(analysis.getDescription()).doesNotContain("An error has occurred")
				.contains("No Kubernetes cluster")
				.contains(KUBECONFIG)
				.contains("in-cluster");
			assertThat(analysis.getAction()).contains("KUBECONFIG").contains("informer.enabled=false");
		});
	}

}
