package dev.informer.sample;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.RbacRules;
import dev.informer.autoconfigure.InformerProperties;
import dev.informer.runtime.kinds.ResourceKindResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The manifests under {@code sample-app/k8s} grant exactly what {@link RbacRules}
 * computes from the informers declared in {@code application.yml} (resolved against the
 * demo's mock API server with the Widget CRD installed), and the Deployment runs as that
 * ServiceAccount with the health probes.
 */
class RbacManifestTests {

	private static final Path K8S = Path.of("k8s");

	private static DemoApiServer server;

	private static RbacRules rules;

	@BeforeAll
	static void resolveDeclarations() throws IOException {
		server = DemoApiServer.mock();
		new DemoTraffic(server.client()).seed(false);
		ResourceKindResolver resolver = new ResourceKindResolver(server.client(), "test",
				RbacManifestTests.class.getClassLoader());
		List<InformerDefinition<?>> definitions = new ArrayList<>();
		declaredInformers().getResources()
			.forEach((name,
					resource) -> definitions.add(resolver.resolve(InformerDeclaration.builder(name)
						.apiVersion(resource.getApiVersion())
						.kind(resource.getKind())
						.namespaces(resource.getNamespaces())
						.build())));
		rules = RbacRules.of(definitions);
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	void manifestsGrantExactlyTheComputedRules() throws IOException {
		List<Map<String, Object>> manifests = load("rbac.yaml");
		assertThat(grants(manifests)).isEqualTo(grants(yaml(rules.toYaml("informer-sample", "informer-sample"))));
		// and the sample needs both kinds of role, so this checks both
		assertThat(rules.getRoles()).containsOnlyKeys("default", "team-a");
		assertThat(rules.getClusterRole()).isNotEmpty();
	}

	@Test
	void manifestsGrantOnlyListAndWatch() throws IOException {
		assertThat(grants(load("rbac.yaml"))).isNotEmpty()
			.allSatisfy((grant) -> assertThat(grant).matches(".* (list|watch)"));
	}

	@Test
	@SuppressWarnings("unchecked")
	void deploymentRunsAsTheBoundServiceAccountWithHealthProbes() throws IOException {
		Map<String, Object> deployment = load("deployment.yaml").stream()
			.filter((document) -> "Deployment".equals(document.get("kind")))
			.findFirst()
			.orElseThrow();
		Map<String, Object> pod = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) deployment
			.get("spec")).get("template")).get("spec");
		Map<String, Object> container = ((List<Map<String, Object>>) pod.get("containers")).get(0);
		assertThat(pod).containsEntry("serviceAccountName", "informer-sample");
		assertThat(path(container, "readinessProbe")).isEqualTo("/actuator/health/readiness");
		assertThat(path(container, "livenessProbe")).isEqualTo("/actuator/health/liveness");
		assertThat((List<Map<String, Object>>) container.get("ports")).containsExactly(
				Map.of("name", "http", "containerPort", 8080), Map.of("name", "management", "containerPort", 8081));
		List<Map<String, Object>> rbac = load("rbac.yaml");
		for (Map<String, Object> binding : rbac) {
			if (String.valueOf(binding.get("kind")).endsWith("Binding")) {
				assertThat((List<Map<String, Object>>) binding.get("subjects")).containsExactly(
						Map.of("kind", "ServiceAccount", "name", "informer-sample", "namespace", "informer-sample"));
			}
		}
		assertThat(rbac).anySatisfy((document) -> assertThat(document).containsEntry("kind", "ServiceAccount")
			.containsEntry("metadata", Map.of("name", "informer-sample", "namespace", "informer-sample")));
	}

	@SuppressWarnings("unchecked")
	private static Object path(Map<String, Object> container, String probe) {
		return ((Map<String, Object>) ((Map<String, Object>) container.get(probe)).get("httpGet")).get("path");
	}

	/**
	 * Flatten roles into "Role namespace group/resource verb" lines, bound roles only, so
	 * that grouping and order do not matter.
	 */
	@SuppressWarnings("unchecked")
	static Set<String> grants(List<Map<String, Object>> documents) {
		Set<String> bound = new TreeSet<>();
		for (Map<String, Object> document : documents) {
			if (String.valueOf(document.get("kind")).endsWith("Binding")) {
				Map<String, Object> metadata = (Map<String, Object>) document.get("metadata");
				Map<String, Object> roleRef = (Map<String, Object>) document.get("roleRef");
				bound.add(roleRef.get("kind") + " " + metadata.getOrDefault("namespace", "*") + " "
						+ roleRef.get("name"));
			}
		}
		Set<String> grants = new TreeSet<>();
		for (Map<String, Object> document : documents) {
			String kind = String.valueOf(document.get("kind"));
			if (!kind.equals("Role") && !kind.equals("ClusterRole")) {
				continue;
			}
			Map<String, Object> metadata = (Map<String, Object>) document.get("metadata");
			String scope = kind + " " + metadata.getOrDefault("namespace", "*");
			assertThat(bound).as("binding of %s %s", scope, metadata.get("name"))
				.contains(scope + " " + metadata.get("name"));
			for (Map<String, Object> rule : (List<Map<String, Object>>) document.get("rules")) {
				for (String group : (List<String>) rule.get("apiGroups")) {
					for (String resource : (List<String>) rule.get("resources")) {
						for (String verb : (List<String>) rule.get("verbs")) {
							grants.add(scope + " " + group + "/" + resource + " " + verb);
						}
					}
				}
			}
		}
		return grants;
	}

	static List<Map<String, Object>> load(String file) throws IOException {
		try (Reader reader = Files.newBufferedReader(K8S.resolve(file))) {
			return yaml(reader);
		}
	}

	@SuppressWarnings("unchecked")
	static List<Map<String, Object>> yaml(Object source) {
		List<Map<String, Object>> documents = new ArrayList<>();
		Iterable<Object> all = (source instanceof Reader reader) ? new Yaml().loadAll(reader)
				: new Yaml().loadAll((String) source);
		all.forEach((document) -> {
			if (document != null) {
				documents.add((Map<String, Object>) document);
			}
		});
		return documents;
	}

	/** The informers of application.yml's default profile, as Spring Boot binds them. */
	static InformerProperties declaredInformers() throws IOException {
		List<PropertySource<?>> documents = new YamlPropertySourceLoader().load("application.yml",
				new ClassPathResource("application.yml"));
		// the first document: the profile-less declarations a cluster deployment uses
		Binder binder = new Binder(ConfigurationPropertySources.from(documents.get(0)));
		return binder.bind("informer", InformerProperties.class).get();
	}

}
