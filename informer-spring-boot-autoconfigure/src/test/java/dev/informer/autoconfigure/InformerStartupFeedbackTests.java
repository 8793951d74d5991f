package dev.informer.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline.TimelineEvent;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.metrics.StartupStep;

import dev.informer.test.MockApiServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a starting application tells about the informers: the line naming the API server
 * (without the client's token), and the startup steps {@code /actuator/startup} shows.
 */
@ExtendWith(OutputCaptureExtension.class)
class InformerStartupFeedbackTests {

	private static final String TOKEN = "sha256~token-value-that-must-not-be-logged";

	private static MockApiServer mock;

	private static KubernetesClient client;

	@BeforeAll
	static void startServer() {
		mock = MockApiServer.crud();
		client = new KubernetesClientBuilder()
			.withConfig(new ConfigBuilder(mock.client().getConfiguration()).withOauthToken(TOKEN).build())
			.build();
	}

	@AfterAll
	static void stopServer() {
		client.close();
		mock.close();
	}

	private final BufferingApplicationStartup startup = new BufferingApplicationStartup(1000);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withInitializer((context) -> ((GenericApplicationContext) context).setApplicationStartup(this.startup))
		.withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
		.withBean(KubernetesClient.class, () -> client, (definition) -> definition.setDestroyMethodName(""))
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap",
				"informer.resources.configmaps.namespaces=feedback-a,feedback-b",
				"informer.resources.pods.api-version=v1", "informer.resources.pods.kind=Pod");

	@Test
	void oneLineNamesTheApiServerAndNoLogLineHoldsTheToken(CapturedOutput output) {
		this.runner.run((context) -> assertThat(context).hasNotFailed());
		// the mock server's client names a kubeconfig-like context and user
		assertThat(output)
			.contains("Informers use the API server " + client.getMasterUrl()
					+ " as user fabric8-mock-server-user (the application's KubernetesClient bean, "
					+ "context fabric8-mock-server-context, default namespace test)")
			.doesNotContain(TOKEN);
	}

	@Test
	void registryCreationEachListAndTheSyncWaitAreStartupSteps() {
		this.runner.run((context) -> assertThat(context).hasNotFailed());
		List<StartupStep> steps = this.startup.getBufferedTimeline()
			.getEvents()
			.stream()
			.map(TimelineEvent::getStartupStep)
			.filter((step) -> step.getName().startsWith("informer."))
			.toList();
		assertThat(steps).extracting(StartupStep::getName)
			.containsExactlyInAnyOrder("informer.registry.create", "informer.list", "informer.list",
					"informer.sync.wait");
		assertThat(steps).filteredOn((step) -> step.getName().equals("informer.list"))
			.extracting(InformerStartupFeedbackTests::tags)
			.containsExactlyInAnyOrder(
					Map.of("informer", "configmaps", "watches", "2", "outcome", "synced", "objects", "0"),
					Map.of("informer", "pods", "watches", "1", "outcome", "synced", "objects", "0"));
		assertThat(steps).filteredOn((step) -> step.getName().equals("informer.sync.wait"))
			.extracting(InformerStartupFeedbackTests::tags)
			.containsExactly(Map.of("timeout", "PT1M", "outcome", "synced"));
		assertThat(steps).filteredOn((step) -> step.getName().equals("informer.registry.create"))
			.extracting(InformerStartupFeedbackTests::tags)
			.containsExactly(Map.of("informers", "configmaps,pods"));
	}

	private static Map<String, String> tags(StartupStep step) {
		return StreamSupport.stream(step.getTags().spliterator(), false)
			.collect(Collectors.toMap(StartupStep.Tag::getKey, StartupStep.Tag::getValue));
	}

}
