package dev.informer.autoconfigure.metrics;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.InformerRegistry;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.metrics.DeliveryMetrics;
import dev.informer.metrics.InformerMetrics;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.MockApiServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Informer metrics bound to Spring Boot's meter registry, and when they back off.
 */
class InformerMetricsAutoConfigurationTests {

	private static MockApiServer mock;

	@BeforeAll
	static void startServer() {
		mock = MockApiServer.crud();
	}

	@AfterAll
	static void stopServer() {
		mock.close();
	}

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(InformerAutoConfiguration.class, InformerMetricsAutoConfiguration.class))
		.withBean(KubernetesClient.class, () -> mock.client(), (definition) -> definition.setDestroyMethodName(""))
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=metrics-ac");

	@Test
	void metersAreBoundToSpringBootsRegistry() {
		this.runner
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(InformerMetrics.class);
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.get("informer.synced")
					.tag("informer", "configmaps")
					.tag("k8s.namespace.name", "metrics-ac")
					.gauge()
					.value()).isEqualTo(1);
				assertThat(meters.get("informer.list.duration").tag("informer", "configmaps").functionTimer().count())
					.isEqualTo(1);
			});
	}

	@Test
	void leaderDeliveryHasItsMeters() {
		this.runner
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=orders",
					"informer.replicas.lease-namespace=metrics-ac")
			.run((context) -> {
				assertThat(context).hasSingleBean(DeliveryMetrics.class);
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.get("informer.delivery.leader").tag("group", "orders").tag("mode", "leader").gauge())
					.isNotNull();
				assertThat(meters.get("informer.delivery.owned.objects").tag("group", "orders").gauge()).isNotNull();
			});
		this.runner
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.run((context) -> assertThat(context.getBean(MeterRegistry.class).find("informer.delivery.leader").meters())
				.isEmpty());
	}

	@Test
	void backsOffWithoutAMeterRegistry() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(InformerRegistry.class)
			.doesNotHaveBean(InformerMetrics.class));
	}

	@Test
	void backsOffWithoutMicrometer() {
		this.runner.withClassLoader(new FilteredClassLoader("io.micrometer.core"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(InformerRegistry.class)
				.doesNotHaveBean("informerMetrics"));
	}

	@Test
	void backsOffWithoutInformers() {
		this.runner
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.withPropertyValues("informer.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(InformerMetrics.class));
	}

	@Test
	void backsOffForTheApplicationsOwnMetrics() {
		this.runner
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.withBean("customMetrics", InformerMetrics.class,
					() -> new InformerMetrics(new DefaultInformerRegistry(java.util.List.of())))
			.run((context) -> assertThat(context).hasSingleBean(InformerMetrics.class).hasBean("customMetrics"));
	}

}
