package dev.informer.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's jar, built with Spring's AOT processing ({@code process-aot} in the
 * sample's build), started as a user starts it with {@code -Dspring.aot.enabled=true} on
 * a real kube-apiserver: the context comes from the generated code, every informer syncs,
 * and listeners receive typed events, SpEL conditions and generics resolved, for objects
 * listed at start and for changes after it. Runs the packaged jar, so it is an
 * integration test; skipped without the API server's binaries unless
 * {@code INFORMER_REQUIRE_APISERVER=true}.
 */
class SpringAotIT {

	private static final Duration STARTUP = Duration.ofMinutes(2);

	private static final Pattern PORT = Pattern.compile("started on port (\\d+)");

	private static DemoApiServer server;

	@TempDir
	Path work;

	private Process application;

	private Path output;

	@BeforeAll
	static void startServer() {
		Optional<String> version = DemoApiServer.installedVersion(DemoApiServer.binaryRoot());
		RealDemoModeIT.requireBinaries(version);
		server = DemoApiServer.real(DemoApiServer.binaryRoot(), version.orElseThrow());
		KubernetesClient client = server.client();
		WidgetCrd.install(client, true);
		client.namespaces()
			.resource(new NamespaceBuilder().withNewMetadata().withName("team-a").endMetadata().build())
			.create();
	}

	@AfterAll
	static void stopServer() {
		if (server != null) {
			server.close();
		}
	}

	@AfterEach
	void stopApplication() {
		if (this.application != null) {
			this.application.destroyForcibly();
		}
	}

	@Test
	void theAotProcessedApplicationSyncsAndDeliversEvents() throws Exception {
		KubernetesClient client = server.client();
		configMap(client, "default", "listed-at-start", "web");
		start();
		await().atMost(STARTUP).until(() -> log().contains("Informers synced: configmaps, pods, namespaces, widgets"));
		assertThat(log()).contains("Starting AOT-processed SampleApplication")
			.contains("informer=configmaps type=added object=default/listed-at-start")
			.contains("informer=widgets synced: 0 objects");

		configMap(client, "team-a", "changed-after-sync", "api");
		client.genericKubernetesResources("example.com/v1", "Widget")
			.inNamespace("default")
			.resource(new GenericKubernetesResourceBuilder().withApiVersion("example.com/v1")
				.withKind("Widget")
				.withNewMetadata()
				.withName("aot-widget")
				.endMetadata()
				.withAdditionalProperties(Map.of("spec", Map.of("color", "green")))
				.build())
			.create();
		await().atMost(STARTUP)
			.untilAsserted(
					() -> assertThat(log()).contains("informer=configmaps type=added object=team-a/changed-after-sync")
						// a SpEL condition on ResourceEvent<ConfigMap>: generics and
						// accessors resolved
						.contains("team-a changed: changed-after-sync")
						.contains("informer=widgets type=added object=default/aot-widget")
						.contains("widgets in cache by color: {green=1}"));
		assertThat(log()).doesNotContain("team-a changed: listed-at-start");

		Matcher port = PORT.matcher(log());
		assertThat(port.find()).as(log()).isTrue();
		String widgets = RestClient.create("http://127.0.0.1:" + port.group(1))
			.get()
			.uri("/widgets")
			.retrieve()
			.body(String.class);
		assertThat(widgets).contains("aot-widget").contains("green");
	}

	private static void configMap(KubernetesClient client, String namespace, String name, String app) {
		client.configMaps()
			.inNamespace(namespace)
			.resource(new ConfigMapBuilder().withNewMetadata()
				.withName(name)
				.addToLabels("app", app)
				.endMetadata()
				.addToData("key", "value")
				.build())
			.create();
	}

	private void start() throws IOException {
		Path kubeconfig = this.work.resolve("kubeconfig");
		Files.writeString(kubeconfig, server.kubeconfig());
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(List.of("-Dspring.aot.enabled=true", "-jar", PackagedJarIT.packagedJar().toString(),
				"--server.port=0"));
		this.output = this.work.resolve("application.log");
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(this.output.toFile());
		builder.environment().put("KUBECONFIG", kubeconfig.toString());
		builder.environment().remove("KUBERNETES_SERVICE_HOST");
		builder.environment().remove("DEMO");
		builder.environment().remove("JAVA_TOOL_OPTIONS");
		this.application = builder.start();
	}

	private String log() throws IOException {
		String text = Files.readString(this.output, StandardCharsets.UTF_8);
		if (!this.application.isAlive()) {
			throw new IllegalStateException("The application exited (" + this.application.exitValue() + "):\n" + text);
		}
		return text;
	}

}
