package dev.informer.autoconfigure;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.support.DefaultLifecycleProcessor;
import org.springframework.core.SpringProperties;

import dev.informer.InformerDefinition;
import dev.informer.InformerStartupException;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.InformerLifecycle;
import dev.informer.runtime.ResourceInformer;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A training run for the JVM's class data sharing or AOT cache, as Spring Boot documents
 * it and as buildpacks run it in an image build ({@code -Dspring.context.exit=onRefresh}:
 * the context refreshes, then the JVM halts before any lifecycle starts), usually has no
 * cluster: the declarations then resolve without the API server, and no informer asks it.
 */
class TrainingRunTests {

	private static final String[] DECLARATIONS = { "informer.resources.configmaps.api-version=v1",
			"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=team-a",
			"informer.resources.namespaces.api-version=v1", "informer.resources.namespaces.kind=Namespace",
			"informer.resources.widgets.api-version=example.com/v1", "informer.resources.widgets.kind=Widget" };

	private final ApplicationContextRunner runner = InformerContexts.runner(InformerContexts::unreachableClient)
		.withPropertyValues(DECLARATIONS);

	@BeforeAll
	static void lifecycleProcessorIgnoresTheExitProperty() {
		// Spring's lifecycle processor reads spring.context.exit once, when its class is
		// initialized: initialized before the property is set, it starts this test's
		// contexts instead of halting the test JVM, as a training run's never would
		new DefaultLifecycleProcessor();
	}

	@AfterEach
	void noLongerATrainingRun() {
		SpringProperties.setProperty(DefaultLifecycleProcessor.EXIT_PROPERTY_NAME, null);
	}

	@Test
	void aTrainingRunRefreshesWithoutACluster() {
		trainingRun();
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
			assertThat(registry.names()).containsExactly("configmaps", "namespaces", "widgets");
			assertDefinition(registry, "configmaps", ConfigMap.class, "configmaps", true);
			assertDefinition(registry, "namespaces", Namespace.class, "namespaces", false);
			// no class to tell: what its informer would list is left to the real run
			assertDefinition(registry, "widgets", GenericKubernetesResource.class, "widgets", true);
		});
	}

	@Test
	void aTrainingRunStartsNoInformer() {
		try (MockApiServer mock = MockApiServer.crud()) {
			trainingRun();
			InformerContexts.runner(mock::client).withPropertyValues(DECLARATIONS).run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(InformerLifecycle.class).isRunning()).isTrue();
				for (ResourceInformer<?> informer : context.getBean(DefaultInformerRegistry.class).informers()) {
					assertThat(informer.getStartedAt()).as(informer.getName()).isNull();
				}
			});
			assertThat(mock.server().getRequestCount()).isZero();
		}
	}

	@Test
	void outsideATrainingRunTheServerIsAsked() {
		this.runner.run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining(InformerStartupException.class.getName())
				.hasStackTraceContaining("Cannot reach the Kubernetes API server https://127.0.0.1:1");
		});
	}

	private static void trainingRun() {
		SpringProperties.setProperty(DefaultLifecycleProcessor.EXIT_PROPERTY_NAME,
				DefaultLifecycleProcessor.ON_REFRESH_VALUE);
	}

	private static void assertDefinition(DefaultInformerRegistry registry, String name, Class<?> type, String plural,
			boolean namespaced) {
		InformerDefinition<?> definition = registry.informers()
			.stream()
			.filter((informer) -> informer.getName().equals(name))
			.findFirst()
			.orElseThrow()
			.getDefinition();
		assertThat(definition.getResourceClass()).as(name).isEqualTo(type);
		assertThat(definition.getPlural()).as(name).isEqualTo(plural);
		assertThat(definition.isNamespaced()).as(name).isEqualTo(namespaced);
	}

}
