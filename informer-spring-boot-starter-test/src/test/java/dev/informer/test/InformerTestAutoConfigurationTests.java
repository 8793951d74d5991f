package dev.informer.test;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.autoconfigure.KubernetesConnectionDetails;
import dev.informer.test.InformerTest.Server;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link InformerTestAutoConfiguration}.
 */
class InformerTestAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(InformerTestAutoConfiguration.class));

	@Test
	void autoMeansRealWhenInstalledAndMockOtherwise() {
		assertThat(InformerTestAutoConfiguration.resolve(Server.AUTO, true)).isEqualTo(Server.REAL);
		assertThat(InformerTestAutoConfiguration.resolve(Server.AUTO, false)).isEqualTo(Server.MOCK);
		assertThat(InformerTestAutoConfiguration.resolve(Server.MOCK, true)).isEqualTo(Server.MOCK);
		assertThat(InformerTestAutoConfiguration.resolve(Server.REAL, false)).isEqualTo(Server.REAL);
	}

	@Test
	void propertyChoosesTheServer() {
		this.contextRunner.withPropertyValues("informer.test.server=mock")
			.run((context) -> assertThat(context).getBean(KubernetesConnectionDetails.class)
				.isInstanceOf(MockApiServer.class));
	}

	@Test
	void connectionDetailsBeanTakesPrecedence() {
		KubernetesConnectionDetails details = () -> new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build();
		this.contextRunner.withBean(KubernetesConnectionDetails.class, () -> details)
			.withPropertyValues("informer.test.server=mock")
			.run((context) -> {
				assertThat(context).getBean(KubernetesConnectionDetails.class).isSameAs(details);
				assertThat(context.getBean(KubernetesClient.class).getMasterUrl()).hasToString("https://127.0.0.1:1/");
			});
	}

	@Test
	void restrictedCredentialsNeedAServerThatEnforcesRbac() {
		this.contextRunner.withPropertyValues("informer.test.server=mock", "informer.test.restricted=true")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("@InformerTest(restricted = true) needs a server that enforces RBAC")
				.hasMessageContaining("Server.REAL"));
	}

}
