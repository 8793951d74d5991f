package dev.informer.sample;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's Deployment serves actuator (health details, metrics, the {@code informers}
 * endpoint: selectors, namespaces, Lease holders) on a management port of its own, the
 * probes use it, and the application's Service does not expose it; only the monitoring
 * component's headless Service does, for Prometheus.
 */
class ManagementPortTests {

	@Test
	void theServiceDoesNotExposeTheManagementPort() throws IOException {
		Map<String, Object> container = container();
		String managementPort = managementPort(container);
		List<Map<String, Object>> ports = ports(container);
		Map<String, Object> management = ports.stream()
			.filter((port) -> managementPort.equals(String.valueOf(port.get("containerPort"))))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no container port " + managementPort));
		List<Map<String, Object>> servicePorts = servicePorts(document("deployment.yaml", "Service"));
		assertThat(servicePorts).isNotEmpty()
			.extracting((port) -> String.valueOf(port.get("targetPort")))
			.doesNotContain(String.valueOf(management.get("name")), managementPort);
	}

	@Test
	@SuppressWarnings("unchecked")
	void theProbesUseTheManagementPort() throws IOException {
		Map<String, Object> container = container();
		String managementPort = managementPort(container);
		String name = ports(container).stream()
			.filter((port) -> managementPort.equals(String.valueOf(port.get("containerPort"))))
			.map((port) -> String.valueOf(port.get("name")))
			.findFirst()
			.orElseThrow();
		for (String probe : List.of("readinessProbe", "livenessProbe", "startupProbe")) {
			Map<String, Object> get = (Map<String, Object>) ((Map<String, Object>) container.get(probe)).get("httpGet");
			assertThat(String.valueOf(get.get("port"))).as(probe).isIn(name, managementPort);
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void prometheusScrapesTheManagementPortThroughItsOwnService() throws IOException {
		Map<String, Object> container = container();
		String managementPort = managementPort(container);
		Map<String, Object> service = document("monitoring/management-service.yaml", "Service");
		Map<String, Object> monitor = document("monitoring/service-monitor.yaml", "ServiceMonitor");
		Map<String, Object> spec = (Map<String, Object>) monitor.get("spec");
		Map<String, Object> selector = (Map<String, Object>) ((Map<String, Object>) spec.get("selector"))
			.get("matchLabels");
		assertThat((Map<String, Object>) ((Map<String, Object>) service.get("metadata")).get("labels"))
			.containsAllEntriesOf(selector);
		Map<String, Object> application = document("deployment.yaml", "Service");
		Map<String, Object> applicationLabels = (Map<String, Object>) ((Map<String, Object>) application
			.get("metadata")).get("labels");
		assertThat(selector).as("the ServiceMonitor's selector, not the application Service's labels")
			.isNotEqualTo((applicationLabels != null) ? Map.copyOf(applicationLabels) : Map.of())
			.doesNotContainEntry("app.kubernetes.io/component",
					(applicationLabels != null) ? applicationLabels.get("app.kubernetes.io/component") : null);
		assertThat(((Map<String, Object>) service.get("spec")).get("clusterIP")).isEqualTo("None");
		Map<String, Object> endpoint = ((List<Map<String, Object>>) spec.get("endpoints")).get(0);
		Map<String, Object> port = servicePorts(service).stream()
			.filter((candidate) -> endpoint.get("port").equals(candidate.get("name")))
			.findFirst()
			.orElseThrow();
		assertThat(String.valueOf(port.get("port"))).isEqualTo(managementPort);
	}

	/**
	 * The port actuator listens on: management.server.port, else (as in Spring Boot) the
	 * application's port, 8080.
	 */
	@SuppressWarnings("unchecked")
	private static String managementPort(Map<String, Object> container) {
		List<Map<String, Object>> env = (List<Map<String, Object>>) container.get("env");
		return ((env != null) ? env : List.<Map<String, Object>>of()).stream()
			.filter((variable) -> "MANAGEMENT_SERVER_PORT".equals(variable.get("name")))
			.map((variable) -> String.valueOf(variable.get("value")))
			.findFirst()
			.orElse("8080");
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> ports(Map<String, Object> container) {
		return (List<Map<String, Object>>) container.get("ports");
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> servicePorts(Map<String, Object> service) {
		return (List<Map<String, Object>>) ((Map<String, Object>) service.get("spec")).get("ports");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> container() throws IOException {
		Map<String, Object> deployment = document("deployment.yaml", "Deployment");
		Map<String, Object> pod = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) deployment
			.get("spec")).get("template")).get("spec");
		return ((List<Map<String, Object>>) pod.get("containers")).get(0);
	}

	private static Map<String, Object> document(String file, String kind) throws IOException {
		return RbacManifestTests.load(file)
			.stream()
			.filter((document) -> kind.equals(document.get("kind")))
			.findFirst()
			.orElseThrow();
	}

}
