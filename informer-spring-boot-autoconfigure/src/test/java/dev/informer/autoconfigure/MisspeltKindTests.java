package dev.informer.autoconfigure;

import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

import dev.informer.InvalidInformerDeclarationException;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A misspelt kind fails startup naming {@code kind} (not the API version every server
 * serves), the value, and the nearest kinds: those the server's discovery lists, or the
 * built-in kinds of the API version when discovery lists none (as on fabric8's mock
 * server, which the test starter uses).
 */
class MisspeltKindTests {

	private static final String[] CONFIG_MAPP = { "informer.resources.configmaps.api-version=v1",
			"informer.resources.configmaps.kind=ConfigMapp", "informer.resources.configmaps.namespaces=kinds" };

	@Test
	void withoutDiscoveryTheNearestBuiltInKindsAreNamed() {
		try (MockApiServer mock = MockApiServer.crud()) {
			InformerContexts.runner(mock::client).withPropertyValues(CONFIG_MAPP).run((context) -> {
				InvalidInformerDeclarationException ex = invalid(context);
				assertThat(ex.getName()).isEqualTo("informer.resources.configmaps.kind");
				assertThat(ex.getValue()).isEqualTo("ConfigMapp");
				assertThat(ex.getAction()).startsWith("Did you mean 'ConfigMap'?");
				FailureAnalysis analysis = new InformerFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("Property: informer.resources.configmaps.kind")
					.contains("Value:    ConfigMapp")
					.doesNotContain("api-version");
			});
		}
	}

	@Test
	void withDiscoveryTheNearestServedKindComesFirst() {
		try (MockApiServer mock = MockApiServer.expectations()) {
			mock.server()
				.expect()
				.get()
				.withPath("/api/v1")
				.andReturn(200,
						new APIResourceListBuilder().withGroupVersion("v1")
							.addNewResource()
							.withName("pods")
							.withKind("Pod")
							.withNamespaced(true)
							.endResource()
							.addNewResource()
							.withName("configmaps")
							.withKind("ConfigMap")
							.withNamespaced(true)
							.endResource()
							.addNewResource()
							.withName("secrets")
							.withKind("Secret")
							.withNamespaced(true)
							.endResource()
							.build())
				.always();
			InformerContexts.runner(mock::client).withPropertyValues(CONFIG_MAPP).run((context) -> {
				InvalidInformerDeclarationException ex = invalid(context);
				assertThat(ex.getName()).isEqualTo("informer.resources.configmaps.kind");
				assertThat(ex.getAction()).startsWith("Did you mean 'ConfigMap'?").contains("ConfigMap, Pod, Secret");
			});
		}
	}

	private static InvalidInformerDeclarationException invalid(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		for (Throwable current = context.getStartupFailure(); current != null; current = current.getCause()) {
			if (current instanceof InvalidInformerDeclarationException invalid) {
				return invalid;
			}
		}
		throw new AssertionError("Not an invalid declaration: " + context.getStartupFailure(),
				context.getStartupFailure());
	}

}
