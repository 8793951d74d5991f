package dev.informer.autoconfigure;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An API server that keeps failing the initial list: startup waits up to the timeout,
 * then fails naming the informer and its last error, or starts anyway when told to.
 */
class InformerStartupTimeoutTests {

	private static MockApiServer mock;

	private final ApplicationContextRunner runner = InformerContexts.runner(() -> mock.client())
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=broken",
				"informer.startup.timeout=2s");

	@BeforeAll
	static void startServer() {
		mock = MockApiServer.expectations().withCoreDiscovery();
		mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces/broken/configmaps?resourceVersion=0")
			.andReturn(500,
					new StatusBuilder().withCode(500).withReason("InternalError").withMessage("etcd is sad").build())
			.always();
	}

	@AfterAll
	static void stopServer() {
		mock.close();
	}

	@Test
	void startupFailsAfterTheTimeoutNamingTheUnsyncedInformer() {
		this.runner.run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new InformerStartupFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("did not sync within PT2S (informer.startup.timeout)")
				.contains("'configmaps' in namespace broken");
			assertThat(analysis.getAction()).contains("informer.startup.fail-on-timeout=false");
		});
	}

	@Test
	void startupContinuesWhenTimeoutsAreTolerated() {
		this.runner.withPropertyValues("informer.startup.fail-on-timeout=false").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(DefaultInformerRegistry.class).informer("configmaps").isSynced()).isFalse();
		});
	}

}
