package dev.informer.sample;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The Deployment that {@code kubectl kustomize sample-app/k8s} renders passes Pod
 * Security "restricted" on a real kube-apiserver, whose PodSecurity admission enforces
 * the level a namespace's {@code pod-security.kubernetes.io/enforce} label names.
 * Enforcement applies to Pods (a Deployment is admitted whatever its template; with no
 * controller manager here, nothing makes its Pods), so its Pod template is created as a
 * Pod: admitted, while a copy that allows privilege escalation is rejected, so the
 * namespace does enforce. The rendered image is kustomization.yaml's. Skipped without
 * binaries, unless {@code INFORMER_REQUIRE_APISERVER=true}.
 */
class RestrictedPodSecurityIT {

	private static final String NAMESPACE = "restricted";

	private static DemoApiServer server;

	private static List<HasMetadata> rendered;

	@BeforeAll
	static void renderTheBaseAndStartTheServer() throws Exception {
		Optional<String> version = DemoApiServer.installedVersion(DemoApiServer.binaryRoot());
		RealDemoModeIT.requireBinaries(version);
		String yaml = kustomize(
				DemoApiServer.binaryRoot().resolve("k8s").resolve(version.get() + "-linux-amd64").resolve("kubectl"));
		server = DemoApiServer.real(DemoApiServer.binaryRoot(), version.get());
		rendered = client().load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items();
		client()
			.resource(new NamespaceBuilder().withNewMetadata()
				.withName(NAMESPACE)
				.withLabels(Map.of("pod-security.kubernetes.io/enforce", "restricted",
						"pod-security.kubernetes.io/enforce-version", "latest"))
				.endMetadata()
				.build())
			.create();
		// the Pods run as the sample's ServiceAccount, which admission looks up
		ServiceAccount account = find(ServiceAccount.class);
		account.getMetadata().setNamespace(NAMESPACE);
		client().resource(account).create();
	}

	@AfterAll
	static void stopServer() {
		if (server != null) {
			server.close();
		}
	}

	@Test
	void theRenderedDeploymentIsAcceptedAndItsPodsPassRestricted() {
		Deployment deployment = find(Deployment.class);
		assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
			.isEqualTo("sample-app:0.1.0-SNAPSHOT");
		assertThat(deployment.getMetadata().getNamespace()).isEqualTo("informer-sample");
		deployment.getMetadata().setNamespace(NAMESPACE);
		Deployment applied = client().resource(deployment).forceConflicts().serverSideApply();
		assertThat(applied.getMetadata().getUid()).isNotBlank();

		Pod pod = client().resource(pod("informer-sample", deployment.getSpec().getTemplate().getSpec())).create();
		assertThat(pod.getMetadata().getUid()).isNotBlank();
	}

	@Test
	void aPodThatAllowsPrivilegeEscalationIsRejected() {
		PodSpec spec = find(Deployment.class).getSpec().getTemplate().getSpec();
		spec.getContainers().get(0).getSecurityContext().setAllowPrivilegeEscalation(true);
		KubernetesClientException rejection = catchThrowableOfType(KubernetesClientException.class,
				() -> client().resource(pod("escalating", spec)).create());
		assertThat(rejection).isNotNull();
		assertThat(rejection.getCode()).isEqualTo(403);
		assertThat(rejection.getMessage()).contains("violates PodSecurity \"restricted:latest\"")
			.contains("allowPrivilegeEscalation != false");
	}

	private static Pod pod(String name, PodSpec spec) {
		return new PodBuilder().withNewMetadata()
			.withNamespace(NAMESPACE)
			.withName(name)
			.endMetadata()
			.withSpec(spec)
			.build();
	}

	private static <T extends HasMetadata> T find(Class<T> kind) {
		HasMetadata found = rendered.stream().filter(kind::isInstance).findFirst().orElseThrow();
		// a copy: each test changes what it takes
		return kind.cast(client().getKubernetesSerialization().clone(found));
	}

	private static KubernetesClient client() {
		return server.client();
	}

	private static String kustomize(Path kubectl) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(kubectl.toString(), "kustomize", Path.of("k8s").toString())
			.redirectErrorStream(true)
			.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(output).isZero();
		return output;
	}

}
