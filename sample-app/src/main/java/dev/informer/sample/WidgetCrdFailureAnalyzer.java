package dev.informer.sample;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

import dev.informer.InvalidInformerDeclarationException;

/**
 * Explains a start against a cluster without the sample's Widget CRD: the informer
 * {@code widgets} fails because the API server does not serve {@code example.com/v1}
 * Widget, and the fix is one command (or {@code sample.install-crd=true}). Ordered before
 * the starter's own analyzer, which would describe it as any undeclared kind; other
 * declaration failures are left to it.
 */
class WidgetCrdFailureAnalyzer extends AbstractFailureAnalyzer<InvalidInformerDeclarationException> implements Ordered {

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, InvalidInformerDeclarationException cause) {
		boolean notServed = "widgets".equals(cause.getInformerName())
				&& ("api-version".equals(cause.getProperty()) || "kind".equals(cause.getProperty()))
				&& cause.getProblem().contains("not served");
		if (!notServed) {
			return null;
		}
		String description = "The Kubernetes cluster does not serve the sample's custom resource Widget "
				+ "(example.com/v1): its CustomResourceDefinition is not installed.\n\n    " + cause.getMessage();
		String action = "Install it, from the repository root:\n\n    " + WidgetCrd.APPLY_COMMAND
				+ "\n\nor start the sample with --" + WidgetCrd.INSTALL_PROPERTY
				+ "=true to apply it (needs permission to create CustomResourceDefinitions), or run the demo on "
				+ "an embedded API server instead: ./mvnw -f sample-app spring-boot:test-run";
		return new FailureAnalysis(description, action, cause);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
