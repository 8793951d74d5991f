package dev.informer.autoconfigure;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code informer.delivery.*} values that the Lease API cannot carry fail startup naming
 * the property, the value and the fix, instead of reaching the API server: fabric8 writes
 * the lease duration in whole seconds (truncated), a Lease's name must be a DNS subdomain
 * and the group is a label value on the members' Leases (at most 63 characters). The mock
 * server accepts all of these, so each test fails when a check is missing.
 */
class LeasePropertiesTests {

	private static final String LONG_GROUP = "orders-" + "a".repeat(57);

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
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=leases",
				"informer.delivery.lease-namespace=leases", "informer.delivery.identity=pod-a");

	@Test
	void aLeaseDurationOfFractionalSecondsFailsStartupRatherThanBecomingShorterThanTheRenewDeadline() {
		// written as leaseDurationSeconds=1: other replicas would take over after 1 s,
		// while this one publishes until 1.2 s
		this.runner
			.withPropertyValues("informer.delivery.mode=leader", "informer.delivery.group=orders",
					"informer.delivery.lease-duration=1500ms", "informer.delivery.renew-deadline=1200ms",
					"informer.delivery.retry-period=900ms")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.delivery.lease-duration");
				assertThat(ex.getValue()).isEqualTo(Duration.ofMillis(1500));
				assertThat(ex.getReason()).contains("whole seconds", "written as 1 s", "for example '2s'");
			});
	}

	@Test
	void aSubSecondLeaseDurationFailsStartupRatherThanBeingWrittenAsZero() {
		this.runner
			.withPropertyValues("informer.delivery.mode=leader", "informer.delivery.group=orders",
					"informer.delivery.lease-duration=500ms", "informer.delivery.renew-deadline=400ms",
					"informer.delivery.retry-period=300ms")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.delivery.lease-duration");
				assertThat(ex.getValue()).isEqualTo(Duration.ofMillis(500));
				assertThat(ex.getReason()).contains("whole seconds", "written as 0 s", "refuses", "for example '1s'");
			});
	}

	@Test
	void aRenewDeadlineThatFabric8sElectorRefusesFailsStartupNamingTheProperty() {
		// fabric8 waits up to 2.2 retry periods between attempts and refuses to start an
		// election otherwise, with an IllegalArgumentException naming no property
		this.runner
			.withPropertyValues("informer.delivery.mode=leader", "informer.delivery.group=orders",
					"informer.delivery.lease-duration=3s", "informer.delivery.renew-deadline=2s",
					"informer.delivery.retry-period=1s")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.delivery.renew-deadline");
				assertThat(ex.getValue()).isEqualTo(Duration.ofSeconds(2));
				assertThat(ex.getReason()).contains("2.2 x informer.delivery.retry-period (1s)", "'10s' with '2s'");
			});
	}

	@Test
	void aGroupLongerThanALabelValueFailsStartup() {
		this.runner.withPropertyValues("informer.delivery.mode=sharded", "informer.delivery.group=" + LONG_GROUP)
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.delivery.group");
				assertThat(ex.getValue()).isEqualTo(LONG_GROUP);
				assertThat(ex.getReason()).contains("at most 63 characters (it has 64)", "label",
						"for example 'orders-service'");
			});
	}

	@Test
	void anApplicationNameGivingAGroupLongerThanALabelValueFailsStartup() {
		this.runner.withPropertyValues("informer.delivery.mode=leader", "spring.application.name=" + LONG_GROUP)
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.delivery.group");
				assertThat(ex.getReason()).contains("spring.application.name '" + LONG_GROUP + "'",
						"at most 63 characters", "set informer.delivery.group");
			});
	}

	@Test
	void anApplicationNameGivingAnInvalidLeaseNameFailsStartup() {
		this.runner.withPropertyValues("informer.delivery.mode=leader", "spring.application.name=orders..service")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.delivery.group");
				assertThat(ex.getReason()).contains("spring.application.name 'orders..service'",
						"set informer.delivery.group");
			});
	}

	@Test
	void anIdentityGivingAnInvalidMemberLeaseNameFailsStartupInShardedMode() {
		this.runner
			.withPropertyValues("informer.delivery.mode=sharded", "informer.delivery.group=orders",
					"informer.delivery.identity=pod..a")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.delivery.identity");
				assertThat(ex.getValue()).isEqualTo("pod..a");
				assertThat(ex.getReason()).contains("'orders-pod..a'", "not a valid Lease name",
						"for example the pod name");
			});
	}

	@Test
	void aLongApplicationNameIsNoProblemWhenEveryReplicaPublishes() {
		this.runner.withPropertyValues("spring.application.name=" + LONG_GROUP)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	private static InvalidConfigurationPropertyValueException invalidProperty(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		for (Throwable current = context.getStartupFailure(); current != null; current = current.getCause()) {
			if (current instanceof InvalidConfigurationPropertyValueException invalid) {
				return invalid;
			}
		}
		throw new AssertionError("Not an invalid property: " + context.getStartupFailure(),
				context.getStartupFailure());
	}

}
