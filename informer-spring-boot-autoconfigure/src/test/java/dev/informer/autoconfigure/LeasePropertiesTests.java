package dev.informer.autoconfigure;

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
 * {@code informer.replicas.*} values that the Lease API cannot carry fail startup naming
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
				"informer.replicas.lease-namespace=leases", "informer.replicas.identity=pod-a");

	@Test
	void aLeaseDurationOfFractionalSecondsFailsStartupRatherThanBecomingShorterThanTheRenewDeadline() {
		// written as leaseDurationSeconds=1: other replicas would take over after 1 s,
		// while this one publishes until 1.2 s
		this.runner
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=orders",
					"informer.replicas.lease-duration=1500ms", "informer.replicas.renew-deadline=1200ms",
					"informer.replicas.retry-period=900ms")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.replicas.lease-duration");
				assertThat(ex.getValue()).isEqualTo("1500ms");
				assertThat(ex.getReason()).contains("whole seconds", "written as 1 s", "for example '2s'");
			});
	}

	@Test
	void aSubSecondLeaseDurationFailsStartupRatherThanBeingWrittenAsZero() {
		this.runner
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=orders",
					"informer.replicas.lease-duration=500ms", "informer.replicas.renew-deadline=400ms",
					"informer.replicas.retry-period=300ms")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.replicas.lease-duration");
				assertThat(ex.getValue()).isEqualTo("500ms");
				assertThat(ex.getReason()).contains("whole seconds", "written as 0 s", "refuses", "for example '1s'");
			});
	}

	@Test
	void aRenewDeadlineThatFabric8sElectorRefusesFailsStartupNamingTheProperty() {
		// fabric8 waits up to 2.2 retry periods between attempts and refuses to start an
		// election otherwise, with an IllegalArgumentException naming no property
		this.runner
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=orders",
					"informer.replicas.lease-duration=3s", "informer.replicas.renew-deadline=2s",
					"informer.replicas.retry-period=1s")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.replicas.renew-deadline");
				assertThat(ex.getValue()).isEqualTo("2s");
				assertThat(ex.getReason()).contains("2.2 x informer.replicas.retry-period (1s)", "'10s' with '2s'");
			});
	}

	@Test
	void aStepDownBoundNoLongerThanTheSilentWatchRestartFailsStartupNamingBoth() {
		// a stale replica would give its part up before the restart of a silent watch
		// had its chance
		this.runner
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=orders",
					"informer.replicas.step-down-stale-after=60s")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.replicas.step-down-stale-after");
				assertThat(ex.getValue()).isEqualTo("60s");
				assertThat(ex.getReason()).contains("informer.reliability.restart-silent-watch-after (75s)",
						"'2m' (the default) with '75s'");
			});
	}

	@Test
	void aGroupLongerThanALabelValueFailsStartup() {
		this.runner.withPropertyValues("informer.replicas.mode=sharded", "informer.replicas.group=" + LONG_GROUP)
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.replicas.group");
				assertThat(ex.getValue()).isEqualTo(LONG_GROUP);
				assertThat(ex.getReason()).contains("at most 63 characters (it has 64)", "label",
						"for example 'orders-service'");
			});
	}

	@Test
	void anApplicationNameGivingAGroupLongerThanALabelValueFailsStartup() {
		this.runner.withPropertyValues("informer.replicas.mode=leader", "spring.application.name=" + LONG_GROUP)
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.replicas.group");
				assertThat(ex.getReason()).contains("spring.application.name '" + LONG_GROUP + "'",
						"at most 63 characters", "set informer.replicas.group");
			});
	}

	@Test
	void anApplicationNameGivingAnInvalidLeaseNameFailsStartup() {
		this.runner.withPropertyValues("informer.replicas.mode=leader", "spring.application.name=orders..service")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.replicas.group");
				assertThat(ex.getReason()).contains("spring.application.name 'orders..service'",
						"set informer.replicas.group");
			});
	}

	@Test
	void anIdentityGivingAnInvalidMemberLeaseNameFailsStartupInShardedMode() {
		this.runner
			.withPropertyValues("informer.replicas.mode=sharded", "informer.replicas.group=orders",
					"informer.replicas.identity=pod..a")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.replicas.identity");
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
