package dev.informer.it;

import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.InvalidInformerDeclarationException;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Selectors as the real API server applies them: the requirements the starter accepts
 * reach it intact, the ones it rejects are the ones the server would misread or answer
 * with nothing, and one the server rejects fails startup at once.
 */
class SelectorsIT {

	private static final String NAMESPACE = "it-selectors";

	private static KubernetesClient admin;

	@BeforeAll
	static void createObjects() {
		admin = RealApiServer.get().adminClient();
		TestResources.createNamespaces(admin, NAMESPACE);
		create("one", Map.of("replicas", "1"));
		create("three", Map.of("replicas", "3"));
		create("three-b", Map.of("replicas", "3"));
		create("twelve", Map.of("replicas", "12"));
		create("empty", Map.of("app", ""));
		create("unlabelled", Map.of());
	}

	@AfterAll
	static void closeClient() {
		if (admin != null) {
			admin.close();
		}
	}

	private static void create(String name, Map<String, String> labels) {
		admin.configMaps().resource(TestResources.configMap(NAMESPACE, name, labels, "x")).create();
	}

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
		.withBean(KubernetesClient.class, () -> admin, (definition) -> definition.setDestroyMethodName(""))
		.withBean(RecordingListener.class)
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap",
				"informer.resources.configmaps.namespaces=" + NAMESPACE);

	@Test
	void integerComparisonsEscapedValuesAndARepeatedFieldAreAppliedByTheServer() {
		// sent unescaped, 'a,b=c\d' would be two terms and the server would answer 400
		this.runner
			.withPropertyValues("informer.resources.configmaps.label-selector=replicas>1,replicas<10",
					"informer.resources.configmaps.field-selector=metadata.name!=three-b,metadata.name!=a\\,b\\=c\\\\d")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RecordingListener.class).events(ResourceAddedEvent.class))
					.extracting((event) -> event.getName())
					.containsExactly("three");
			});
	}

	@Test
	void aFieldTheServerCannotSelectByFailsStartupAtOnceWithTheServersMessage() {
		this.runner.withPropertyValues("informer.resources.configmaps.field-selector=data.colour=blue")
			.run((context) -> {
				assertThat(context).hasFailed();
				InvalidInformerDeclarationException failure = startupException(context.getStartupFailure());
				assertThat(failure).hasMessageContaining("Informer 'configmaps': field-selector")
					.hasMessageContaining("\"data.colour\" is not a known field selector")
					.hasMessageNotContaining("did not sync within");
			});
	}

	@Test
	void theServerReadsAnEmptySetAsTheEmptyValueWhichIsWhyTheStarterRejectsIt() {
		assertThat(admin.configMaps().inNamespace(NAMESPACE).withLabelSelector("app in ()").list().getItems())
			.extracting((cm) -> cm.getMetadata().getName())
			.containsExactly("empty");
	}

	@Test
	void theServerRequiresEveryFieldRequirementWhichIsWhyTheStarterRejectsTwoValuesForOneField() {
		assertThat(admin.configMaps().inNamespace(NAMESPACE).withField("metadata.name", "one").list().getItems())
			.extracting((cm) -> cm.getMetadata().getName())
			.containsExactly("one");
		// what 'metadata.name=one,metadata.name=three' asks for, sent verbatim
		assertThat(admin.configMaps()
			.inNamespace(NAMESPACE)
			.withField("metadata.name=one,metadata.name=three", null)
			.list()
			.getItems()).isEmpty();
		assertThat(admin.configMaps()
			.inNamespace(NAMESPACE)
			.withField("metadata.name!=one,metadata.name!=three", null)
			.list()
			.getItems()).extracting(ConfigMap::getMetadata)
			.extracting((metadata) -> metadata.getName())
			.doesNotContain("one", "three")
			.contains("twelve");
	}

	private static InvalidInformerDeclarationException startupException(Throwable failure) {
		for (Throwable current = failure; current != null; current = current.getCause()) {
			if (current instanceof InvalidInformerDeclarationException startup) {
				return startup;
			}
		}
		throw new AssertionError("No InvalidInformerDeclarationException in " + failure, failure);
	}

}
