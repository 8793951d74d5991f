package dev.informer.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;
import org.springframework.mock.env.MockEnvironment;

import dev.informer.InformerCustomizer;
import dev.informer.InformerRegistry;
import dev.informer.InformerStartupException;
import dev.informer.InvalidInformerDeclarationException;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.InformerLifecycle;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.listeners.BacklogOptions;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Binding, back-off and every bad declaration, each failing startup with a message that
 * names the property, the value and the fix.
 */
class InformerAutoConfigurationTests {

	private static MockApiServer mock;

	private static KubernetesMockServer server;

	private static KubernetesClient client;

	@BeforeAll
	static void startServer() {
		mock = MockApiServer.crud();
		server = mock.server();
		client = mock.client();
	}

	@AfterAll
	static void stopServer() {
		mock.close();
	}

	private final ApplicationContextRunner runner = InformerContexts.runner(() -> client);

	@Test
	void withoutDeclarationsNoInformerRunsAndNoServerIsAsked() {
		InformerContexts.runner(InformerContexts::unreachableClient).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(DefaultInformerRegistry.class).names()).isEmpty();
		});
	}

	@Test
	void bindsDeclarationsWithDefaultsAndOverrides() {
		this.runner
			.withPropertyValues("informer.resync-period=10m", "informer.list-page-size=500",
					"informer.resources.configmaps.api-version=v1", "informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=bind-a,bind-b",
					"informer.resources.configmaps.resync-period=5m",
					"informer.resources.configmaps.label-selector=app in (web,api),!legacy",
					"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt",
					"informer.resources.nodes.api-version=v1", "informer.resources.nodes.kind=Node",
					"informer.resources.nodes.strip-managed-fields=false", "informer.resources.off.api-version=v1",
					"informer.resources.off.kind=Secret", "informer.resources.off.enabled=false")
			.run((context) -> {
				DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
				assertThat(registry.names()).containsExactly("configmaps", "nodes");
				ResourceInformer<?> configMaps = registry.informer("configmaps");
				assertThat(configMaps.getDefinition().getResourceClass()).isEqualTo(ConfigMap.class);
				assertThat(configMaps.getDefinition().getPlural()).isEqualTo("configmaps");
				assertThat(configMaps.getDefinition().getDeclaration().getResyncPeriod()).hasMinutes(5);
				assertThat(configMaps.getDefinition().getDeclaration().getListPageSize()).isEqualTo(500);
				assertThat(configMaps.getWatches()).extracting((status) -> status.getNamespace())
					.containsExactly("bind-a", "bind-b");
				ResourceInformer<?> nodes = registry.informer("nodes");
				assertThat(nodes.getDefinition().isNamespaced()).isFalse();
				assertThat(nodes.getDefinition().getDeclaration().getResyncPeriod()).hasMinutes(10);
				assertThat(nodes.getDefinition().getDeclaration().isStripManagedFields()).isFalse();
			});
	}

	@Test
	void disabledGloballyCreatesNothing() {
		this.runner.withPropertyValues("informer.enabled=false", "informer.resources.cm.kind=ConfigMap")
			.run((context) -> assertThat(context).doesNotHaveBean(InformerRegistry.class)
				.doesNotHaveBean(InformerLifecycle.class));
	}

	@Test
	void usesTheApplicationsClientAndDoesNotCreateOne() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(KubernetesClient.class)
			.doesNotHaveBean(InformerAutoConfiguration.CLIENT_BEAN_NAME));
	}

	@Test
	void createsAClientWhenTheApplicationHasNone() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.run((context) -> assertThat(context).hasSingleBean(KubernetesClient.class)
				.hasBean(InformerAutoConfiguration.CLIENT_BEAN_NAME));
	}

	@Test
	void createsTheClientFromConnectionDetailsWhenTheyExist() {
		client.configMaps().resource(TestResources.configMap("connection-details", "seen", "v")).create();
		KubernetesConnectionDetails details = () -> new ConfigBuilder(client.getConfiguration()).build();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesConnectionDetails.class, () -> details)
			.withPropertyValues(configMap("connection-details"))
			.run((context) -> {
				assertThat(context).hasNotFailed().hasBean(InformerAutoConfiguration.CLIENT_BEAN_NAME);
				assertThat(context.getBean(KubernetesClient.class).getMasterUrl()).isEqualTo(client.getMasterUrl());
				assertThat(context.getBean(DefaultInformerRegistry.class)
					.cache("configmaps", ConfigMap.class)
					.get("connection-details", "seen")).isPresent();
			});
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnRegistry() {
		InformerRegistry own = new DefaultInformerRegistry(List.of());
		this.runner.withBean(InformerRegistry.class, () -> own)
			.withPropertyValues(configMap("backoff"))
			.run((context) -> assertThat(context.getBean(InformerRegistry.class)).isSameAs(own));
	}

	@Test
	void backsOffWithoutFabric8() {
		this.runner.withClassLoader(new FilteredClassLoader(KubernetesClient.class))
			.run((context) -> assertThat(context).doesNotHaveBean(InformerRegistry.class));
	}

	@Test
	void customizersSeeEachInformerBeforeItStarts() {
		client.configMaps().resource(TestResources.configMap("customized", "cm", Map.of("big", "x"), "v")).create();
		this.runner.withBean(RecordingListener.class)
			.withBean(InformerCustomizer.class,
					() -> (spec) -> spec.as(ConfigMap.class)
						.addTransform((cm) -> cm.getMetadata().setLabels(Map.of("transformed", spec.getName()))))
			.withPropertyValues(configMap("customized"))
			.run((context) -> {
				ConfigMap cached = context.getBean(DefaultInformerRegistry.class)
					.cache("configmaps", ConfigMap.class)
					.get("customized", "cm")
					.orElseThrow();
				assertThat(cached.getMetadata().getLabels()).containsExactly(Map.entry("transformed", "configmaps"));
			});
	}

	@Test
	void missingKind() {
		assertInvalid(new String[] { "informer.resources.cm.api-version=v1" }, "informer.resources.cm.kind",
				"is missing", "kind: ConfigMap");
	}

	@Test
	void malformedApiVersion() {
		assertInvalid(
				new String[] { "informer.resources.cm.api-version=apps/v1/x", "informer.resources.cm.kind=ConfigMap" },
				"informer.resources.cm.api-version", "apps/v1/x", "'group/version'");
	}

	@Test
	void malformedLabelSelector() {
		assertInvalid(
				new String[] { "informer.resources.cm.api-version=v1", "informer.resources.cm.kind=ConfigMap",
						"informer.resources.cm.label-selector=app in (web" },
				"informer.resources.cm.label-selector", "app in (web", "kubectl syntax");
	}

	@Test
	void malformedFieldSelector() {
		assertInvalid(
				new String[] { "informer.resources.cm.api-version=v1", "informer.resources.cm.kind=ConfigMap",
						"informer.resources.cm.field-selector=metadata.name" },
				"informer.resources.cm.field-selector", "metadata.name", "field!=value");
	}

	@Test
	void negativeResyncPeriod() {
		assertInvalid(
				new String[] { "informer.resources.cm.api-version=v1", "informer.resources.cm.kind=ConfigMap",
						"informer.resources.cm.resync-period=-5s" },
				"informer.resources.cm.resync-period", "-5s", "positive duration");
	}

	@Test
	void negativePageSize() {
		assertInvalid(
				new String[] { "informer.resources.cm.api-version=v1", "informer.resources.cm.kind=ConfigMap",
						"informer.resources.cm.list-page-size=-1" },
				"informer.resources.cm.list-page-size", "-1", "positive page size");
	}

	@Test
	void negativeDefaultPageSizeNamesTheDefaultNotTheInformer() {
		assertInvalidProperty("informer.list-page-size", "-1", "a page size such as 500");
	}

	@Test
	void negativeDefaultResyncPeriod() {
		assertInvalidProperty("informer.resync-period", "-5s", "'0s' to disable resync");
	}

	@Test
	void subSecondDefaultResyncPeriod() {
		assertInvalidProperty("informer.resync-period", "500ms", "at least '1s'");
	}

	@Test
	void aBadDefaultIsExplainedByTheStartersAnalyzerAheadOfSpringBoots() {
		this.runner.withPropertyValues(configMap("bad-default"))
			.withPropertyValues("informer.resync-period=-5s")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InformerFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
				assertThat(analysis.getDescription()).contains("A default that every informer declaration inherits")
					.contains("informer.resync-period")
					.contains("Value:    -5s")
					.doesNotContain("PT-5S")
					.contains("is negative");
				assertThat(analysis.getAction()).contains("'0s' to disable resync");
			});
		// Spring Boot's analyzer of the superclass would also take it, without the action
		FailureAnalyzer springBoots = SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, ArgumentResolver.of(Environment.class, new MockEnvironment()),
					FailureHandler.handleMessage((message, failure) -> {
						// analyzers that need a bean factory are not the ones looked for
					}))
			.stream()
			.filter((analyzer) -> analyzer.getClass()
				.getSimpleName()
				.equals("InvalidConfigurationPropertyValueFailureAnalyzer"))
			.findFirst()
			.orElseThrow();
		assertThat(AnnotationAwareOrderComparator.INSTANCE.compare(new InformerFailureAnalyzer(), springBoots))
			.isNegative();
	}

	@ParameterizedTest
	@ValueSource(strings = { "0s", "-1s" })
	void startupTimeoutNotPositive(String value) {
		assertInvalidProperty("informer.startup.timeout", value, "informer.startup.wait-for-sync=false");
	}

	@ParameterizedTest
	@ValueSource(strings = { "0s", "-1s" })
	void watchLossGraceNotPositive(String value) {
		assertInvalidProperty("informer.health.watch-loss-grace", value, "'90s'");
	}

	@ParameterizedTest
	@ValueSource(strings = { "-1s", "500ms" })
	void stalenessCheckPeriodNegativeOrBelowOneSecond(String value) {
		assertInvalidProperty("informer.health.staleness-check-period", value, "0 (no check) or at least 1s");
	}

	@ParameterizedTest
	@ValueSource(
			strings = { "informer.reliability.replace-stalled-after", "informer.reliability.watch-availability-window",
					"informer.reliability.backoff-initial-interval", "informer.reliability.backoff-max-interval" })
	void reliabilityDurationsNotPositive(String property) {
		assertInvalidProperty(property, "0s", "positive duration");
	}

	@ParameterizedTest
	@ValueSource(strings = { "0s", "4s", "-1s" })
	void restartSilentWatchAfterBelowFiveSeconds(String value) {
		assertInvalidProperty("informer.reliability.restart-silent-watch-after", value, "'75s'");
	}

	@ParameterizedTest
	@ValueSource(strings = { "0s", "-1s" })
	void staleAfterNotPositive(String value) {
		assertInvalidProperty("informer.health.stale-after", value, "'65s'");
	}

	@Test
	void backoffMaxIntervalBelowTheInitialInterval() {
		this.runner.withPropertyValues(configMap("backoff-order"))
			.withPropertyValues("informer.reliability.backoff-initial-interval=10s",
					"informer.reliability.backoff-max-interval=5s")
			.run((context) -> assertThat(invalidProperty(context))
				.satisfies((ex) -> assertThat(ex.getName()).isEqualTo("informer.reliability.backoff-max-interval"))
				.satisfies((ex) -> assertThat(ex.getValue()).isEqualTo("5s"))
				.satisfies((ex) -> assertThat(ex.getReason()).contains("informer.reliability.backoff-initial-interval")
					.contains("10s")
					.contains("raise")));
	}

	@Test
	void blankNamespace() {
		assertInvalid(
				new String[] { "informer.resources.cm.api-version=v1", "informer.resources.cm.kind=ConfigMap",
						"informer.resources.cm.namespaces[0]=default", "informer.resources.cm.namespaces[1]= " },
				"informer.resources.cm.namespaces[1]", "is blank", "leave 'namespaces' empty");
	}

	@Test
	void kindNotServedNamesWhatIsServed() {
		assertInvalid(
				new String[] { "informer.resources.w.api-version=example.com/v1", "informer.resources.w.kind=Wodget" },
				"informer.resources.w.", "not served", "install its CustomResourceDefinition");
	}

	@Test
	void namespacesOnAClusterScopedKind() {
		assertInvalid(
				new String[] { "informer.resources.ns.api-version=v1", "informer.resources.ns.kind=Namespace",
						"informer.resources.ns.namespaces=default" },
				"informer.resources.ns.namespaces", "cluster-scoped", "Remove 'namespaces'");
	}

	@Test
	void typeNotFound() {
		assertInvalid(
				new String[] { "informer.resources.g.api-version=example.com/v1", "informer.resources.g.kind=Gadget",
						"informer.resources.g.type=com.acme.Missing" },
				"informer.resources.g.type", "com.acme.Missing", "fully qualified class name");
	}

	@Test
	void typeNotHasMetadata() {
		assertInvalid(
				new String[] { "informer.resources.g.api-version=example.com/v1", "informer.resources.g.kind=Gadget",
						"informer.resources.g.type=java.lang.String" },
				"informer.resources.g.type", "java.lang.String", "CustomResource subclass");
	}

	@Test
	void unreachableApiServerNamesTheUrlAndTheConfigSource() {
		InformerContexts.runner(InformerContexts::unreachableClient)
			.withPropertyValues(configMap("any"))
			.run((context) -> {
				FailureAnalysis analysis = startupFailure(context);
				assertThat(analysis.getDescription())
					.contains("Cannot reach the Kubernetes API server https://127.0.0.1:1")
					.contains("application's KubernetesClient bean");
				assertThat(analysis.getAction()).contains("kubectl config current-context");
			});
	}

	@Test
	void unreachableApiServerFromConnectionDetailsNamesThem() {
		KubernetesConnectionDetails details = () -> InformerContexts.unreachableClient().getConfiguration();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesConnectionDetails.class, () -> details)
			.withPropertyValues(configMap("any"))
			.run((context) -> assertThat(startupFailure(context).getDescription())
				.contains("Cannot reach the Kubernetes API server https://127.0.0.1:1")
				.contains("(from KubernetesConnectionDetails")
				.doesNotContain("fabric8 defaults"));
	}

	@Test
	void forbiddenListNamesVerbResourceNamespaceAndTheMissingRule() {
		server.expect()
			.get()
			.withPath("/api/v1/namespaces/forbidden/configmaps?resourceVersion=0")
			.andReturn(403, new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(403)
				.withReason("Forbidden")
				.withMessage(
						"configmaps is forbidden: User \"app\" cannot list resource \"configmaps\" in API group \"\" "
								+ "in the namespace \"forbidden\"")
				.build())
			.once();
		this.runner.withPropertyValues(configMap("forbidden")).run((context) -> {
			FailureAnalysis analysis = startupFailure(context);
			assertThat(analysis.getDescription())
				.contains("'configmaps' is forbidden to list configmaps in namespace forbidden")
				.contains("403");
			assertThat(analysis.getAction()).contains("Role (namespace forbidden)")
				.contains("resources: [configmaps]")
				.contains("verbs: [list, watch]")
				.contains("apiGroups: [\"\"]");
		});
	}

	private void assertInvalid(String[] properties, String property, String valueOrProblem, String action) {
		this.runner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new InformerFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
			assertThat(analysis.getCause()).isInstanceOf(InvalidInformerDeclarationException.class);
			assertThat(analysis.getDescription()).contains(property).contains(valueOrProblem);
			assertThat(analysis.getAction()).contains(action);
		});
	}

	@Test
	void aMaxBacklogBelowOneFailsStartup() {
		assertInvalidProperty("informer.listeners.max-backlog", "0", "must be at least 1, for example '10000'");
	}

	@Test
	void theBacklogBoundReachesEveryInformerAndIsUnboundedByDefault() {
		this.runner.withPropertyValues(configMap("bounded")).run((context) -> {
			ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
			assertThat(informer.getBacklog()).isEqualTo(BacklogOptions.UNBOUNDED);
		});
		this.runner.withPropertyValues(configMap("bounded"))
			.withPropertyValues("informer.listeners.max-backlog=500", "informer.listeners.overflow=fail")
			.run((context) -> {
				ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
				assertThat(informer.getBacklog()).isEqualTo(new BacklogOptions(500, BacklogOptions.Overflow.FAIL));
			});
	}

	@Test
	void aLeaseDurationNotLongerThanTheRenewDeadlineFailsStartup() {
		assertInvalidProperty("informer.replicas.lease-duration", "10s",
				"longer than informer.replicas.renew-deadline");
	}

	@Test
	void aRetryPeriodTooLongForTheRenewDeadlineFailsStartup() {
		this.runner.withPropertyValues(configMap("invalid-property"))
			.withPropertyValues("informer.replicas.retry-period=9s")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.replicas.renew-deadline");
				assertThat(ex.getValue()).isEqualTo("10s");
				assertThat(ex.getReason()).contains("2.2 x informer.replicas.retry-period (9s)", "'10s' with '2s'");
			});
	}

	@Test
	void anInvalidGroupFailsStartup() {
		this.runner.withPropertyValues(configMap("invalid-property"))
			.withPropertyValues("informer.replicas.group=Orders_Service")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.replicas.group");
				assertThat(ex.getValue()).isEqualTo("Orders_Service");
				assertThat(ex.getReason()).contains("valid Kubernetes name", "'orders-service'");
			});
	}

	@Test
	void leaderModeWithoutGroupOrApplicationNameFailsStartup() {
		this.runner.withPropertyValues(configMap("invalid-property"))
			.withPropertyValues("informer.replicas.mode=leader")
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo("informer.replicas.group");
				assertThat(ex.getReason()).contains("is not set, nor is spring.application.name",
						"'leader' or 'sharded'", "for example 'orders-service'");
			});
	}

	@Test
	void theGroupDefaultsToTheApplicationNameAndTheIdentityToThePodName() {
		InformerProperties properties = new InformerProperties();
		properties.getReplicas().setMode(dev.informer.DeliveryMode.LEADER);
		MockEnvironment environment = new MockEnvironment().withProperty("spring.application.name", "Orders Service")
			.withProperty("HOSTNAME", "orders-7d9f-x2k4q");
		dev.informer.runtime.replicas.DeliveryOptions options = DeliveryOptionsFactory.create(properties, environment,
				java.util.Set.of(), java.nio.file.Path.of("/nonexistent/namespace"));
		assertThat(options.group()).isEqualTo("orders-service");
		assertThat(options.identity()).isEqualTo("orders-7d9f-x2k4q");
		assertThat(options.leaseNamespace()).isEqualTo("default");
		assertThat(options.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
		assertThat(options.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
		assertThat(options.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
	}

	private void assertInvalidProperty(String property, String value, String fix) {
		this.runner.withPropertyValues(configMap("invalid-property"))
			.withPropertyValues(property + "=" + value)
			.run((context) -> {
				InvalidConfigurationPropertyValueException ex = invalidProperty(context);
				assertThat(ex.getName()).isEqualTo(property);
				// as written, not in ISO-8601 ('PT-5S')
				assertThat(ex.getValue()).hasToString(value);
				assertThat(ex.getReason()).contains(fix);
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

	private static FailureAnalysis startupFailure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new InformerStartupFailureAnalyzer().analyze(context.getStartupFailure());
		assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
		assertThat(analysis.getCause()).isInstanceOf(InformerStartupException.class);
		return analysis;
	}

	private static String[] configMap(String namespace) {
		return new String[] { "informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap",
				"informer.resources.configmaps.namespaces=" + namespace };
	}

}
