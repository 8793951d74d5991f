package dev.informer.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code sample-app/k8s} is a kustomize base that holds every manifest of the directory,
 * sets the image through {@code images:} rather than a tag in the Deployment, and asks
 * for what Pod Security "restricted" requires. Read without kustomize, so it runs
 * everywhere; {@link RestrictedPodSecurityIT} renders the base and has a real API server
 * enforce it.
 */
class KustomizeBaseTests {

	private static final Path K8S = Path.of("k8s");

	@Test
	@SuppressWarnings("unchecked")
	void theBaseListsEveryManifestOfTheDirectory() throws IOException {
		Map<String, Object> kustomization = RbacManifestTests.load("kustomization.yaml").get(0);
		List<String> manifests;
		try (Stream<Path> files = Files.list(K8S)) {
			manifests = files.map((file) -> file.getFileName().toString())
				.filter((name) -> name.endsWith(".yaml"))
				.filter((name) -> !name.equals("kustomization.yaml") && !name.equals("namespace-transformer.yaml"))
				.toList();
		}
		assertThat((List<String>) kustomization.get("resources")).containsExactlyInAnyOrderElementsOf(manifests);
		assertThat((List<String>) kustomization.get("transformers")).containsExactly("namespace-transformer.yaml");
		assertThat(RbacManifestTests.load("namespace-transformer.yaml").get(0)).containsEntry("unsetOnly", true)
			.containsEntry("metadata", Map.of("name", "informer-sample", "namespace", "informer-sample"));
	}

	@Test
	@SuppressWarnings("unchecked")
	void theImageComesFromTheKustomization() throws IOException {
		Map<String, Object> image = ((List<Map<String, Object>>) RbacManifestTests.load("kustomization.yaml")
			.get(0)
			.get("images")).get(0);
		assertThat(container().get("image")).isEqualTo(image.get("name"));
		assertThat(image).containsEntry("newName", "sample-app").containsKey("newTag");
	}

	@Test
	@SuppressWarnings("unchecked")
	void podAndContainerAskForWhatRestrictedRequires() throws IOException {
		Map<String, Object> pod = podSpec();
		assertThat((Map<String, Object>) pod.get("securityContext")).containsEntry("runAsNonRoot", true)
			.containsEntry("seccompProfile", Map.of("type", "RuntimeDefault"));
		assertThat((Map<String, Object>) container().get("securityContext"))
			.containsEntry("allowPrivilegeEscalation", false)
			.containsEntry("capabilities", Map.of("drop", List.of("ALL")));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> podSpec() throws IOException {
		Map<String, Object> deployment = RbacManifestTests.load("deployment.yaml")
			.stream()
			.filter((document) -> "Deployment".equals(document.get("kind")))
			.findFirst()
			.orElseThrow();
		return (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) deployment.get("spec"))
			.get("template")).get("spec");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> container() throws IOException {
		return ((List<Map<String, Object>>) podSpec().get("containers")).get(0);
	}

}
