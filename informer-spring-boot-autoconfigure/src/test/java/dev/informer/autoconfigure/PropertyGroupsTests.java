package dev.informer.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.informer.DeliveryMode;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.listeners.BacklogOptions;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.watch.DeliverySnapshot;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Delivery to listeners ({@code informer.listeners.*}) and across replicas
 * ({@code informer.replicas.*}, per informer {@code replicas.mode}) are configured apart,
 * and the names they replace ({@code informer.delivery.*},
 * {@code informer.resources.<name>.delivery-mode}) keep working for a release: used alone
 * they apply with a warning naming the replacement, set beside a different value of their
 * replacement they fail startup naming both, and a bad value is reported under the name
 * the user wrote. Each test reads what the settings did (the informers' backlog, this
 * replica's delivery snapshot, the startup failure), not the properties object.
 */
@ExtendWith(OutputCaptureExtension.class)
class PropertyGroupsTests {

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
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=groups",
				"informer.resources.secrets.api-version=v1", "informer.resources.secrets.kind=Secret",
				"informer.resources.secrets.namespaces=groups");

	@Test
	void theListenersBacklogBoundReachesEveryInformer() {
		this.runner.withPropertyValues("informer.listeners.max-backlog=5", "informer.listeners.overflow=fail")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(DefaultInformerRegistry.class).informer("configmaps").getBacklog())
					.isEqualTo(new BacklogOptions(5, BacklogOptions.Overflow.FAIL));
			});
	}

	@Test
	void theListenersExecutorIsLookedUpByName() {
		this.runner.withPropertyValues("informer.listeners.executor=missingPool").run((context) -> {
			InvalidConfigurationPropertyValueException ex = invalidProperty(context);
			assertThat(ex.getName()).isEqualTo("informer.listeners.executor");
			assertThat(ex.getReason()).contains("names no bean");
		});
	}

	@Test
	void theReplicasPropertiesFormTheGroupAndAnInformerOverridesTheModeWithReplicasMode() {
		this.runner
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=orders",
					"informer.replicas.identity=pod-a", "informer.replicas.lease-namespace=groups",
					"informer.resources.secrets.replicas.mode=all")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				DeliverySnapshot snapshot = context.getBean(DeliveryCoordinator.class).snapshot();
				assertThat(snapshot.group()).isEqualTo("orders");
				assertThat(snapshot.identity()).isEqualTo("pod-a");
				assertThat(snapshot.leaseNamespace()).isEqualTo("groups");
				assertThat(snapshot.informerModes())
					.isEqualTo(Map.of("configmaps", DeliveryMode.LEADER, "secrets", DeliveryMode.ALL));
			});
	}

	@Test
	void aBadReplicasValueFailsStartupNamingTheNewProperty() {
		this.runner.withPropertyValues("informer.replicas.lease-duration=1500ms").run((context) -> {
			InvalidConfigurationPropertyValueException ex = invalidProperty(context);
			assertThat(ex.getName()).isEqualTo("informer.replicas.lease-duration");
			assertThat(ex.getValue()).isEqualTo("1500ms");
		});
	}

	@Test
	void theDeprecatedDeliveryPropertiesStillApplyWithAWarningNamingTheirReplacement(CapturedOutput output) {
		this.runner
			.withPropertyValues("informer.delivery.mode=leader", "informer.delivery.group=orders",
					"informer.delivery.identity=pod-a", "informer.delivery.lease-namespace=groups",
					"informer.delivery.max-backlog=7", "informer.resources.secrets.delivery-mode=all")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				DeliverySnapshot snapshot = context.getBean(DeliveryCoordinator.class).snapshot();
				assertThat(snapshot.group()).isEqualTo("orders");
				assertThat(snapshot.identity()).isEqualTo("pod-a");
				assertThat(snapshot.leaseNamespace()).isEqualTo("groups");
				assertThat(snapshot.informerModes())
					.isEqualTo(Map.of("configmaps", DeliveryMode.LEADER, "secrets", DeliveryMode.ALL));
				assertThat(context.getBean(DefaultInformerRegistry.class).informer("configmaps").getBacklog())
					.isEqualTo(new BacklogOptions(7, BacklogOptions.Overflow.COALESCE));
			});
		assertThat(output.getOut()).contains(
				"Property 'informer.delivery.mode' is deprecated and will be removed in the next release: rename it "
						+ "'informer.replicas.mode'",
				"'informer.delivery.max-backlog' is deprecated and will be removed in the next release: rename it "
						+ "'informer.listeners.max-backlog'",
				"'informer.resources.secrets.delivery-mode' is deprecated and will be removed in the next release: "
						+ "rename it 'informer.resources.secrets.replicas.mode'");
	}

	@Test
	void aDeprecatedPropertyAndItsReplacementWithDifferentValuesFailStartupNamingBoth() {
		this.runner.withPropertyValues("informer.delivery.max-backlog=5", "informer.listeners.max-backlog=10")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.delivery.max-backlog");
				assertThat(ex.getValue()).isEqualTo(5L);
				assertThat(ex.getReason()).contains("deprecated name of informer.listeners.max-backlog",
						"set too, to '10'", "remove informer.delivery.max-backlog");
			});
	}

	@Test
	void aReplacementSetToItsDefaultStillConflictsWithADifferentDeprecatedValue() {
		// 'all' is the default: only knowing that it was set tells the conflict apart
		this.runner.withPropertyValues("informer.replicas.mode=all", "informer.delivery.mode=leader").run((context) -> {
			InvalidConfigurationPropertyValueException ex = invalidProperty(context);
			assertThat(ex.getName()).isEqualTo("informer.delivery.mode");
			assertThat(ex.getReason()).contains("informer.replicas.mode", "set too, to 'all'");
		});
	}

	@Test
	void anInformersDeliveryModeAndReplicasModeWithDifferentValuesFailStartupNamingBoth() {
		this.runner
			.withPropertyValues("informer.resources.secrets.delivery-mode=leader",
					"informer.resources.secrets.replicas.mode=sharded")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.resources.secrets.delivery-mode");
				assertThat(ex.getReason()).contains("informer.resources.secrets.replicas.mode",
						"set too, to 'sharded'");
			});
	}

	@Test
	void aDeprecatedPropertyAndItsReplacementWithEqualValuesStart() {
		this.runner
			.withPropertyValues("informer.delivery.lease-duration=20s", "informer.replicas.lease-duration=20000ms",
					"informer.delivery.overflow=fail", "informer.listeners.overflow=FAIL",
					"informer.listeners.max-backlog=3")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(DefaultInformerRegistry.class).informer("configmaps").getBacklog())
					.isEqualTo(new BacklogOptions(3, BacklogOptions.Overflow.FAIL));
			});
	}

	@Test
	void aBadValueIsReportedUnderTheNameTheUserWrote() {
		this.runner.withPropertyValues("informer.delivery.max-backlog=0")
			.run((context) -> assertThat(invalidProperty(context).getName())
				.isEqualTo("informer.delivery.max-backlog"));
		this.runner.withPropertyValues("informer.listeners.max-backlog=0")
			.run((context) -> assertThat(invalidProperty(context).getName())
				.isEqualTo("informer.listeners.max-backlog"));
		// the reason names the other property as the user wrote it too
		this.runner.withPropertyValues("informer.delivery.retry-period=9s").run((context) -> {
			InvalidConfigurationPropertyValueException ex = invalidProperty(context);
			assertThat(ex.getName()).isEqualTo("informer.replicas.renew-deadline");
			assertThat(ex.getReason()).contains("2.2 x informer.delivery.retry-period (9s)");
		});
		this.runner.withPropertyValues("informer.delivery.executor=missingPool")
			.run((context) -> assertThat(invalidProperty(context).getName()).isEqualTo("informer.delivery.executor"));
		this.runner.withPropertyValues("informer.delivery.mode=leader").run((context) -> {
			InvalidConfigurationPropertyValueException ex = invalidProperty(context);
			assertThat(ex.getName()).isEqualTo("informer.replicas.group");
			assertThat(ex.getReason()).contains("set informer.replicas.group");
		});
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
