package dev.informer.sample;

import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;

import dev.informer.InvalidInformerDeclarationException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link WidgetCrdFailureAnalyzer} explains the missing Widget CRD with the command that
 * installs it, and leaves every other declaration failure to the starter's analyzer.
 * {@link WidgetCrdIT} shows it on a real API server.
 */
class WidgetCrdFailureAnalyzerTests {

	private final WidgetCrdFailureAnalyzer analyzer = new WidgetCrdFailureAnalyzer();

	@Test
	void aWidgetKindTheServerDoesNotServeIsExplainedWithTheCommandThatInstallsItsCrd() {
		FailureAnalysis analysis = this.analyzer.analyze(new IllegalStateException("wrapped",
				notServed("widgets", "is not served by the API server: it does not know API group 'example.com'")));
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).contains("does not serve the sample's custom resource Widget")
			.contains("it does not know API group 'example.com'");
		assertThat(analysis.getAction()).contains("kubectl apply -f sample-app/k8s/widget-crd.yaml")
			.contains("--sample.install-crd=true")
			.contains("spring-boot:test-run");
	}

	@Test
	void otherDeclarationFailuresAreLeftToTheStartersAnalyzer() {
		assertThat(this.analyzer.analyze(notServed("configmaps", "is not served by the API server"))).isNull();
		assertThat(this.analyzer.analyze(new InvalidInformerDeclarationException("widgets", "label-selector", "a in (",
				"is not a valid label selector", "Fix it.")))
			.isNull();
	}

	private static InvalidInformerDeclarationException notServed(String informer, String problem) {
		return new InvalidInformerDeclarationException(informer, "api-version", "example.com/v1", problem,
				"Install its CustomResourceDefinition.");
	}

}
