package dev.informer.test;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.informer.autoconfigure.KubernetesConnectionDetails;
import dev.informer.test.InformerTest.Server;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link InformerTestAutoConfiguration}.
 */
@ExtendWith(OutputCaptureExtension.class)
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
	void autoSaysWhichServerItChoseAndWhy() {
		assertThat(InformerTestAutoConfiguration.choice(Server.AUTO, Server.MOCK))
			.startsWith("Informer test uses fabric8's mock API server: informer.test.server is auto and there are no "
					+ "kube-apiserver and etcd binaries in ")
			.contains("scripts/envtest.sh");
		assertThat(InformerTestAutoConfiguration.choice(Server.AUTO, Server.REAL)).startsWith(
				"Informer test uses a real kube-apiserver and etcd: informer.test.server is auto and their binaries "
						+ "are installed in ");
		assertThat(InformerTestAutoConfiguration.choice(Server.MOCK, Server.MOCK))
			.startsWith("Informer test uses fabric8's mock API server: informer.test.server=mock");
	}

	@Test
	void theChoiceIsLogged(CapturedOutput output) {
		this.contextRunner.withPropertyValues("informer.test.server=mock")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains("Informer test uses fabric8's mock API server: informer.test.server=mock");
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
