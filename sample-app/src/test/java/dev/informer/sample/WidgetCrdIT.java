package dev.informer.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import dev.informer.InformerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The sample's production {@code main} against a real kube-apiserver that does not serve
 * the Widget CRD, connected as a user's kubeconfig connects it (the starter's own client,
 * from the kubeconfig that the {@code kubeconfig} system property names): the README's
 * first command runs the demo and says why, the production {@code main} fails with one
 * command to run, with {@code --sample.install-crd=true} it applies the CRD and starts,
 * and then the README's first command uses the cluster. Skipped without binaries, unless
 * {@code INFORMER_REQUIRE_APISERVER=true}.
 */
@ExtendWith(OutputCaptureExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WidgetCrdIT {

	private static DemoApiServer server;

	@BeforeAll
	static void startServerAndPointTheKubeconfigAtIt(@TempDir Path directory) throws Exception {
		Optional<String> version = DemoApiServer.installedVersion(DemoApiServer.binaryRoot());
		RealDemoModeIT.requireBinaries(version);
		server = DemoApiServer.real(DemoApiServer.binaryRoot(), version.get());
		Path kubeconfig = Files.writeString(directory.resolve("kubeconfig"), server.kubeconfig());
		System.setProperty("kubeconfig", kubeconfig.toString());
	}

	@AfterAll
	static void stopServer() {
		System.clearProperty("kubeconfig");
		if (server != null) {
			server.close();
		}
	}

	@Test
	@Order(1)
	void theReadmesFirstCommandRunsTheDemoWhenTheClusterHasNoCrd() {
		assertThat(TestSampleApplication.unusableCluster()).contains("does not serve the sample's Widget CRD")
			.contains("kubectl apply -f sample-app/k8s/widget-crd.yaml");
		// the demo spring-boot:test-run then starts; the mock keeps the real server free
		// of the demo's objects
		try (ConfigurableApplicationContext context = TestSampleApplication.demo()
			.run("--server.port=0", "--demo=mock")
			.getApplicationContext()) {
			assertThat(context.getBean(InformerRegistry.class).informer("widgets").isSynced()).isTrue();
			assertThat(context.getBean(InformerRegistry.class).cache("widgets", GenericKubernetesResource.class).size())
				.isPositive();
		}
		assertThat(
				server.client().apiextensions().v1().customResourceDefinitions().withName("widgets.example.com").get())
			.isNull();
	}

	@Test
	@Order(2)
	void withoutTheCrdStartupFailsNamingTheCommandThatInstallsIt(CapturedOutput output) {
		assertThatException().isThrownBy(() -> SpringApplication.run(SampleApplication.class, "--server.port=0"));
		assertThat(output.getOut()).contains("APPLICATION FAILED TO START")
			.contains("does not serve the sample's custom resource Widget (example.com/v1)")
			.contains("    kubectl apply -f sample-app/k8s/widget-crd.yaml")
			.contains("--sample.install-crd=true");
		assertThat(
				server.client().apiextensions().v1().customResourceDefinitions().withName("widgets.example.com").get())
			.isNull();
	}

	@Test
	@Order(3)
	void withInstallCrdTheSampleAppliesItAndStarts() {
		try (ConfigurableApplicationContext context = SpringApplication.run(SampleApplication.class, "--server.port=0",
				"--sample.install-crd=true")) {
			assertThat(context.getBean(InformerRegistry.class).informer("widgets").isSynced()).isTrue();
		}
		assertThat(
				server.client().apiextensions().v1().customResourceDefinitions().withName("widgets.example.com").get())
			.isNotNull();
	}

	@Test
	@Order(4)
	void withTheCrdTheReadmesFirstCommandUsesTheCluster() {
		assertThat(TestSampleApplication.unusableCluster()).isNull();
	}

}
