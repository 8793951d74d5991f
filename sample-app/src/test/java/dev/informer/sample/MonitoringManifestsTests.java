package dev.informer.sample;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The kustomize component {@code k8s/monitoring} carries the same alert rules and
 * dashboard as {@code docs/}, its ServiceMonitor scrapes Prometheus metrics through the
 * management Service ({@link ManagementPortTests} checks the ports), and
 * {@code k8s-with-monitoring} renders with {@code kubectl kustomize} (where kubectl is
 * installed: on the PATH or built by {@code scripts/envtest.sh}; required in CI).
 */
class MonitoringManifestsTests {

	private static final Path SAMPLE = Path.of(".");

	private static final Path MONITORING = SAMPLE.resolve("k8s/monitoring");

	private static final Path DOCS = Path.of("../docs");

	@Test
	@SuppressWarnings("unchecked")
	void thePrometheusRuleHasTheRulesOfTheDocs() throws IOException {
		Map<String, Object> rule = RbacManifestTests.load("monitoring/prometheus-rule.yaml").get(0);
		assertThat(rule).containsEntry("apiVersion", "monitoring.coreos.com/v1")
			.containsEntry("kind", "PrometheusRule");
		Map<String, Object> docs;
		try (Reader reader = Files.newBufferedReader(DOCS.resolve("prometheus-alerts.yml"))) {
			docs = new Yaml().load(reader);
		}
		assertThat(((Map<String, Object>) rule.get("spec")).get("groups")).isEqualTo(docs.get("groups"));
	}

	@Test
	@SuppressWarnings("unchecked")
	void theDashboardConfigMapIsTheDashboardOfTheDocs() throws IOException {
		assertThat(MONITORING.resolve("grafana-dashboard.json"))
			.hasSameTextualContentAs(DOCS.resolve("grafana-dashboard.json"));
		Map<String, Object> component = RbacManifestTests.load("monitoring/kustomization.yaml").get(0);
		assertThat(component).containsEntry("kind", "Component");
		Map<String, Object> generator = ((List<Map<String, Object>>) component.get("configMapGenerator")).get(0);
		assertThat((List<String>) generator.get("files")).containsExactly("informers.json=grafana-dashboard.json");
		assertThat((Map<String, Object>) ((Map<String, Object>) generator.get("options")).get("labels"))
			.containsEntry("grafana_dashboard", "1");
	}

	@Test
	@SuppressWarnings("unchecked")
	void theServiceMonitorScrapesPrometheusWithoutHonorLabels() throws IOException {
		Map<String, Object> monitor = RbacManifestTests.load("monitoring/service-monitor.yaml").get(0);
		Map<String, Object> spec = (Map<String, Object>) monitor.get("spec");
		Map<String, Object> endpoint = ((List<Map<String, Object>>) spec.get("endpoints")).get(0);
		assertThat(endpoint).containsEntry("path", "/actuator/prometheus").doesNotContainKey("honorLabels");
		assertThat(Files.readString(SAMPLE.resolve("src/main/resources/application.yml")))
			.containsPattern("include: .*\\bprometheus\\b");
	}

	@Test
	@SuppressWarnings("unchecked")
	void theOverlayRendersTheSampleWithItsMonitoring(@TempDir Path directory) throws IOException, InterruptedException {
		Optional<Path> kubectl = kubectl();
		assumeTrue(kubectl.isPresent() || "true".equals(System.getenv("INFORMER_REQUIRE_APISERVER")),
				"kubectl is not installed (scripts/envtest.sh builds one)");
		assertThat(kubectl).as("kubectl, required by INFORMER_REQUIRE_APISERVER").isPresent();
		Path root = SAMPLE;
		if (!Files.exists(SAMPLE.resolve("k8s/kustomization.yaml"))) {
			// no kustomize base yet: render a copy with one that lists the manifests
			FileSystemUtils.copyRecursively(SAMPLE.resolve("k8s"), directory.resolve("k8s"));
			FileSystemUtils.copyRecursively(SAMPLE.resolve("k8s-with-monitoring"),
					directory.resolve("k8s-with-monitoring"));
			Files.writeString(directory.resolve("k8s/kustomization.yaml"),
					"resources: [namespace.yaml, rbac.yaml, deployment.yaml]\n");
			root = directory;
		}
		Process process = new ProcessBuilder(kubectl.get().toString(), "kustomize",
				root.resolve("k8s-with-monitoring").toString())
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		String rendered = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).isZero();
		List<Map<String, Object>> documents = RbacManifestTests.yaml(rendered);
		assertThat(documents).extracting((document) -> document.get("kind"))
			.contains("Deployment", "Service", "ServiceMonitor", "PrometheusRule", "ConfigMap");
		Map<String, Object> service = documents.stream()
			.filter((document) -> "Service".equals(document.get("kind")))
			.filter((document) -> "informer-sample-management"
				.equals(((Map<String, Object>) document.get("metadata")).get("name")))
			.findFirst()
			.orElseThrow();
		Map<String, Object> monitor = kind(documents, "ServiceMonitor");
		Map<String, Object> selector = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) monitor
			.get("spec")).get("selector")).get("matchLabels");
		assertThat((Map<String, Object>) ((Map<String, Object>) service.get("metadata")).get("labels"))
			.containsAllEntriesOf(selector);
		assertThat(((Map<String, Object>) monitor.get("metadata")).get("namespace"))
			.isEqualTo(((Map<String, Object>) service.get("metadata")).get("namespace"));
		Map<String, Object> dashboard = kind(documents, "ConfigMap");
		assertThat(((Map<String, Object>) dashboard.get("data")).get("informers.json"))
			.isEqualTo(Files.readString(DOCS.resolve("grafana-dashboard.json")));
	}

	private static Map<String, Object> kind(List<Map<String, Object>> documents, String kind) {
		return documents.stream().filter((document) -> kind.equals(document.get("kind"))).findFirst().orElseThrow();
	}

	private static Optional<Path> kubectl() throws IOException {
		Path built = Path.of(System.getProperty("user.home"), ".kubeapitest", "k8s");
		Stream<Path> candidates = Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
			.map((directory) -> Path.of(directory, "kubectl"));
		if (Files.isDirectory(built)) {
			try (Stream<Path> versions = Files.list(built)) {
				candidates = Stream.concat(versions.map((version) -> version.resolve("kubectl")).toList().stream(),
						candidates);
			}
		}
		return candidates.filter(Files::isExecutable).findFirst();
	}

}
