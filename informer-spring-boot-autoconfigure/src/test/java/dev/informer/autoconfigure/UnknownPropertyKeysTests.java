package dev.informer.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import dev.informer.InvalidInformerDeclarationException;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key under {@code informer.} that binds to nothing fails startup, through the same
 * failure analysis as a bad value: the key as written, where it was set, and the nearest
 * known key. Spring Boot's relaxed forms of a known key, deprecated aliases, list
 * indexes, the keys of free-form maps and the test starter's {@code informer.test.*} are
 * not unknown: an application with them starts.
 */
class UnknownPropertyKeysTests {

	private static MockApiServer mock;

	@BeforeAll
	static void startServer() {
		mock = MockApiServer.crud();
	}

	@AfterAll
	static void stopServer() {
		mock.close();
	}

	private final ApplicationContextRunner runner = InformerContexts.runner(() -> mock.client())
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=keys");

	@Test
	void aMisspeltKeyOfADeclarationFailsNamingTheNearestKey() {
		this.runner.withPropertyValues("informer.resources.configmaps.lable-selector=app=web").run((context) -> {
			UnknownInformerPropertyException ex = unknown(context);
			assertThat(ex.getName()).isEqualTo("informer.resources.configmaps.lable-selector");
			assertThat(ex.getValue()).isEqualTo("app=web");
			assertThat(ex.getNearest()).first().isEqualTo("label-selector");
			FailureAnalysis analysis = new InformerFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription())
				.contains("Informer 'configmaps' is declared with a key the starter does not know")
				.contains("informer.resources.configmaps.lable-selector")
				.contains("app=web");
			assertThat(analysis.getAction()).contains("Did you mean 'label-selector'?")
				.contains("informer.resources.configmaps.label-selector");
		});
	}

	@Test
	void resyncIsNotAKeyAndItsValueIsEchoedAsWritten() {
		this.runner.withPropertyValues("informer.resources.configmaps.resync=-5s").run((context) -> {
			UnknownInformerPropertyException ex = unknown(context);
			assertThat(ex.getNearest()).first().isEqualTo("resync-period");
			assertThat(ex.getValue()).isEqualTo("-5s");
		});
	}

	@Test
	void aMisspeltNestedKeyIsReportedWithItsGroup() {
		this.runner.withPropertyValues("informer.resources.configmaps.replicas.mdoe=leader").run((context) -> {
			UnknownInformerPropertyException ex = unknown(context);
			assertThat(ex.getName()).isEqualTo("informer.resources.configmaps.replicas.mdoe");
			assertThat(ex.getNearest()).containsExactly("replicas.mode");
		});
	}

	@Test
	void aMisspeltGroupOutsideTheDeclarationsIsReportedWithTheRestOfTheKey() {
		this.runner.withPropertyValues("informer.listners.max-threads=4").run((context) -> {
			UnknownInformerPropertyException ex = unknown(context);
			assertThat(ex.getName()).isEqualTo("informer.listners.max-threads");
			assertThat(ex.getInformerName()).isNull();
			assertThat(ex.getNearest()).first().isEqualTo("listeners.max-threads");
			FailureAnalysis analysis = new InformerFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("A key under 'informer.' is not a property of the starter");
		});
	}

	@Test
	void aKeyFarFromEveryKnownKeyListsTheKnownKeys() {
		this.runner.withPropertyValues("informer.resources.configmaps.watch-everything=true").run((context) -> {
			UnknownInformerPropertyException ex = unknown(context);
			assertThat(ex.getNearest()).isEmpty();
			assertThat(ex.getAction()).contains("label-selector", "api-version", "kind");
		});
	}

	@Test
	void theFileAndLineOfAnUnknownKeyAreNamed() {
		String yaml = """
				informer:
				  resources:
				    configmaps:
				      lable-selector: app=web
				""";
		this.runner.withInitializer((context) -> {
			try {
				new YamlPropertySourceLoader()
					.load("application.yml",
							new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8), "application.yml"))
					.forEach(context.getEnvironment().getPropertySources()::addFirst);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}).run((context) -> {
			UnknownInformerPropertyException ex = unknown(context);
			assertThat(ex.getNearest()).first().isEqualTo("label-selector");
			assertThat(ex.getOrigin()).contains("application.yml").contains("4:23");
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "informer.resources.configmaps.labelSelector=app=web",
			"informer.resources.configmaps.label_selector=app=web",
			"informer.resources.configmaps.LABEL-SELECTOR=app=web", "informer.resources.configmaps.namespaces[1]=more",
			"informer.resources.configmaps.indexes.by-name=metadata.name",
			"informer.resources.configmaps.indexes[by-uid]=metadata.uid",
			"informer.resources.configmaps.delivery-mode=all", "informer.delivery.max-threads=4",
			"informer.listeners.max-threads=4", "informer.resources.configmaps.replicas.mode=all",
			"informer.startup.wait-for-sync=true", "informer.events.compile-conditions=true",
			"informer.test.server=mock" })
	void knownKeysInAnyRelaxedFormStart(String property) {
		this.runner.withPropertyValues(property).run((context) -> assertThat(context).hasNotFailed());
	}

	/**
	 * Kubernetes sets {@code INFORMER_PORT} and friends in every pod of a namespace with
	 * a Service named {@code informer}; such variables are not declarations.
	 */
	@Test
	void environmentVariablesAreNotCheckedAndKnownOnesBind() {
		this.runner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(
						"test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						Map.of("INFORMER_RESOURCES_CONFIGMAPS_LABEL_SELECTOR", "app=web",
								"INFORMER_LISTENERS_MAX_THREADS", "3", "INFORMER_PORT", "tcp://10.0.0.1:80",
								"INFORMER_SERVICE_HOST", "10.0.0.1"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(DefaultInformerRegistry.class)
					.informer("configmaps")
					.getDefinition()
					.getDeclaration()
					.getLabelSelector()).isEqualTo("app=web");
			});
	}

	private static UnknownInformerPropertyException unknown(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		for (Throwable current = context.getStartupFailure(); current != null; current = current.getCause()) {
			if (current instanceof UnknownInformerPropertyException unknown) {
				assertThat(unknown).isInstanceOf(InvalidInformerDeclarationException.class);
				return unknown;
			}
		}
		throw new AssertionError("Not an unknown key: " + context.getStartupFailure(), context.getStartupFailure());
	}

}
