package dev.informer.autoconfigure.health;

import java.time.Duration;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.application.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.InformerRegistry;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.autoconfigure.InformerProperties;
import dev.informer.health.DeliveryHealthIndicator;
import dev.informer.health.InformersHealthContributor;
import dev.informer.test.MockApiServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The health contributor and the readiness group's membership, and when they back off.
 */
class InformerHealthContributorAutoConfigurationTests {

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
		.withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class,
				InformerHealthContributorAutoConfiguration.class))
		.withBean(KubernetesClient.class, () -> mock.client(), (definition) -> definition.setDestroyMethodName(""))
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=health-ac");

	@Test
	void informersContributeHealthUnderTheNameInformers() {
		this.runner
			.withConfiguration(AutoConfigurations.of(HealthContributorAutoConfiguration.class,
					HealthContributorRegistryAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(InformersHealthContributor.class)
					.hasBean("informersHealthContributor");
				HealthContributor informers = context.getBean(HealthContributorRegistry.class)
					.getContributor("informers");
				assertThat(informers).isInstanceOf(InformersHealthContributor.class);
				HealthContributor configMaps = ((InformersHealthContributor) informers).getContributor("configmaps");
				Health health = ((HealthIndicator) configMaps).health();
				assertThat(health.getDetails()).containsEntry("namespace", "health-ac").containsEntry("synced", true);
			});
	}

	@Test
	void leaderDeliveryAddsADeliveryComponent() {
		this.runner
			.withConfiguration(AutoConfigurations.of(HealthContributorAutoConfiguration.class,
					HealthContributorRegistryAutoConfiguration.class))
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=orders",
					"informer.replicas.identity=pod-a", "informer.replicas.lease-namespace=health-ac")
			.run((context) -> {
				InformersHealthContributor informers = context.getBean(InformersHealthContributor.class);
				HealthContributor delivery = informers.getContributor(InformersHealthContributor.DELIVERY);
				assertThat(delivery).isInstanceOf(DeliveryHealthIndicator.class);
				Health health = ((HealthIndicator) delivery).health();
				assertThat(health.getDetails()).containsEntry("group", "orders")
					.containsEntry("identity", "pod-a")
					.containsEntry("leaseNamespace", "health-ac")
					.containsKey("leadership");
			});
		this.runner
			.withConfiguration(AutoConfigurations.of(HealthContributorAutoConfiguration.class,
					HealthContributorRegistryAutoConfiguration.class))
			.run((context) -> assertThat(context.getBean(InformersHealthContributor.class)
				.getContributor(InformersHealthContributor.DELIVERY)).isNull());
	}

	@Test
	void theDeliveryComponentJoinsReadinessOnlyWhenConfigured() {
		this.runner.withConfiguration(probes())
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=orders",
					"informer.replicas.lease-namespace=health-ac")
			.run((context) -> {
				HealthEndpointGroup readiness = context.getBean(HealthEndpointGroups.class).get("readiness");
				assertThat(readiness.isMember("informers/configmaps")).isTrue();
				assertThat(readiness.isMember("informers/delivery")).isFalse();
			});
		this.runner.withConfiguration(probes())
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=orders",
					"informer.replicas.lease-namespace=health-ac", "informer.replicas.readiness=true")
			.run((context) -> {
				HealthEndpointGroup readiness = context.getBean(HealthEndpointGroups.class).get("readiness");
				assertThat(readiness.isMember("informers/configmaps")).isTrue();
				assertThat(readiness.isMember("informers/delivery")).isTrue();
			});
	}

	@Test
	void theDeprecatedReadinessPropertyStillPutsTheDeliveryComponentInReadiness() {
		this.runner.withConfiguration(probes())
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=orders",
					"informer.replicas.lease-namespace=health-ac", "informer.delivery.readiness=true")
			.run((context) -> {
				HealthEndpointGroup readiness = context.getBean(HealthEndpointGroups.class).get("readiness");
				assertThat(readiness.isMember("informers/delivery")).isTrue();
			});
	}

	@Test
	void theGraceIsBoundAndANegativeOneFailsStartup() {
		this.runner.withPropertyValues("informer.health.watch-loss-grace=2m").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(InformerProperties.class).getHealth().getWatchLossGrace())
				.isEqualTo(Duration.ofMinutes(2));
		});
		this.runner.withPropertyValues("informer.health.watch-loss-grace=-1s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("informer.health.watch-loss-grace with value '-1s' is invalid"));
	}

	@Test
	void backsOffWhenDisabled() {
		this.runner.withPropertyValues("management.health.informers.enabled=false")
			.run((context) -> assertThat(context).hasSingleBean(InformerRegistry.class)
				.doesNotHaveBean(InformersHealthContributor.class));
		this.runner.withPropertyValues("management.health.defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(InformersHealthContributor.class));
	}

	@Test
	void backsOffWithoutSpringBootHealth() {
		this.runner.withClassLoader(new FilteredClassLoader(HealthContributor.class))
			.run((context) -> assertThat(context).hasSingleBean(InformerRegistry.class)
				.doesNotHaveBean(InformersHealthContributor.class)
				.doesNotHaveBean(InformersReadinessGroupPostProcessor.class));
	}

	@Test
	void backsOffWithoutInformers() {
		this.runner.withPropertyValues("informer.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(InformersHealthContributor.class));
	}

	@Test
	void backsOffForTheApplicationsOwnContributor() {
		this.runner.withBean("informersHealthContributor", HealthIndicator.class, () -> () -> Health.up().build())
			.run((context) -> assertThat(context).doesNotHaveBean(InformersHealthContributor.class));
	}

	@Test
	void informersJoinTheReadinessGroupButNotLiveness() {
		this.runner.withConfiguration(probes()).run((context) -> {
			HealthEndpointGroups groups = context.getBean(HealthEndpointGroups.class);
			assertThat(groups.get("readiness").isMember("informers")).isTrue();
			// Spring Boot asks for each leaf of a composite by its path
			assertThat(groups.get("readiness").isMember("informers/configmaps")).isTrue();
			assertThat(groups.get("readiness").isMember("readinessState")).isTrue();
			assertThat(groups.get("readiness").isMember("diskSpace")).isFalse();
			assertThat(groups.get("liveness").isMember("informers")).isFalse();
			assertThat(groups.getPrimary().isMember("informers")).isTrue();
		});
	}

	@Test
	void theReadinessGroupTheApplicationConfiguredIsLeftAlone() {
		this.runner.withConfiguration(probes())
			.withPropertyValues("management.endpoint.health.group.readiness.include=readinessState")
			.run((context) -> {
				HealthEndpointGroups groups = context.getBean(HealthEndpointGroups.class);
				assertThat(groups.get("readiness").isMember("informers")).isFalse();
				assertThat(groups.get("readiness").isMember("readinessState")).isTrue();
			});
		this.runner.withConfiguration(probes())
			.withPropertyValues("management.endpoint.health.group.readiness.include=readinessState,informers")
			.run((context) -> assertThat(
					context.getBean(HealthEndpointGroups.class).get("readiness").isMember("informers"))
				.isTrue());
	}

	@Test
	void withoutProbesThereIsNoReadinessGroupToJoin() {
		this.runner.withConfiguration(probes())
			.withPropertyValues("management.endpoint.health.probes.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(InformersReadinessGroupPostProcessor.class);
				assertThat(context.getBean(HealthEndpointGroups.class).get("readiness")).isNull();
			});
	}

	private static AutoConfigurations probes() {
		return AutoConfigurations.of(EndpointAutoConfiguration.class, HealthContributorAutoConfiguration.class,
				HealthContributorRegistryAutoConfiguration.class, HealthEndpointAutoConfiguration.class,
				ApplicationAvailabilityAutoConfiguration.class, AvailabilityHealthContributorAutoConfiguration.class,
				AvailabilityProbesAutoConfiguration.class);
	}

}
