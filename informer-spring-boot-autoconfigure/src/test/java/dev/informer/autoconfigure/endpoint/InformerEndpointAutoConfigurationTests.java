package dev.informer.autoconfigure.endpoint;

import java.util.List;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.web.ExposableWebEndpoint;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import dev.informer.InformerRegistry;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.endpoint.InformersEndpoint;
import dev.informer.test.MockApiServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code informers} endpoint exists only when exposed, is read-only unless access is
 * granted, and backs off without actuator.
 */
class InformerEndpointAutoConfigurationTests {

	private static MockApiServer mock;

	@BeforeAll
	static void startServer() {
		mock = MockApiServer.crud();
	}

	@AfterAll
	static void stopServer() {
		mock.close();
	}

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(InformerAutoConfiguration.class, InformerEndpointAutoConfiguration.class))
		.withBean(KubernetesClient.class, () -> mock.client(), (definition) -> definition.setDestroyMethodName(""))
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=endpoint-ac");

	@Test
	void theEndpointIsCreatedWhenExposed() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=informers").run((context) -> {
			assertThat(context).hasSingleBean(InformersEndpoint.class);
			InformersEndpoint.InformerDescriptor configMaps = context.getBean(InformersEndpoint.class)
				.informer("configmaps");
			assertThat(configMaps.status()).isEqualTo("UP");
			assertThat(configMaps.watches()).singleElement()
				.satisfies((watch) -> assertThat(watch).containsEntry("namespace", "endpoint-ac"));
		});
	}

	@Test
	void theEndpointIsNotCreatedWhenNotExposed() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(InformerRegistry.class)
			.doesNotHaveBean(InformersEndpoint.class));
	}

	@Test
	void theEndpointIsNotCreatedWhenAccessIsNone() {
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=informers",
					"management.endpoint.informers.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(InformersEndpoint.class));
	}

	@Test
	void theEndpointIsReadOnlyByDefault() {
		this.runner
			.withConfiguration(
					AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=informers")
			.run((context) -> assertThat(operationTypes(context)).containsOnly(OperationType.READ));
	}

	@Test
	void theRelistIsExposedWhenAccessIsUnrestricted() {
		this.runner
			.withConfiguration(
					AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=informers",
					"management.endpoint.informers.access=UNRESTRICTED")
			.run((context) -> assertThat(operationTypes(context)).contains(OperationType.READ, OperationType.WRITE));
	}

	@Test
	void backsOffWithoutActuator() {
		this.runner.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.withPropertyValues("management.endpoints.web.exposure.include=informers")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(InformerRegistry.class)
				.doesNotHaveBean(InformersEndpoint.class));
	}

	@Test
	void backsOffWithoutInformers() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=informers", "informer.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(InformersEndpoint.class));
	}

	private static List<OperationType> operationTypes(AssertableWebApplicationContext context) {
		ExposableWebEndpoint informers = context.getBean(WebEndpointsSupplier.class)
			.getEndpoints()
			.stream()
			.filter((endpoint) -> endpoint.getEndpointId().equals(EndpointId.of("informers")))
			.findFirst()
			.orElseThrow();
		return informers.getOperations().stream().map(WebOperation::getType).toList();
	}

}
