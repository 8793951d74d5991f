package dev.informer.test;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.autoconfigure.InformerAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Restricted credentials that lack what a declaration needs: startup fails and says which
 * rule is missing, as it would in a cluster whose RBAC lags the application's
 * declarations.
 */
@RequiresRealServer
class RestrictedAccessRealServerTests {

	private final String namespace = "informer-test-" + UUID.randomUUID().toString().substring(0, 8);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(InformerTestAutoConfiguration.class, InformerAutoConfiguration.class))
		.withPropertyValues("informer.test.server=real", "informer.test.restricted=true",
				"informer.test.namespace=" + this.namespace, "informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap",
				"informer.resources.configmaps.namespaces=${informer.test.namespace}",
				"informer.resources.secrets.api-version=v1", "informer.resources.secrets.kind=Secret",
				"informer.resources.secrets.namespaces=${informer.test.namespace}");

	@Test
	void grantsWhatEveryDeclarationNeeds() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(InformerEvents.class).synced()).containsExactlyInAnyOrder("configmaps",
					"secrets");
		});
	}

	@Test
	void aDeclarationNeedingMoreThanGrantedFailsStartupWithTheMissingRule() {
		this.runner.withPropertyValues("informer.test.restricted-ungranted-informers=secrets").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure())
				.hasStackTraceContaining("forbidden to list secrets in namespace " + this.namespace);
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("User \"" + InformerTestAutoConfiguration.restrictedUser(this.namespace)
						+ "\" cannot list resource \"secrets\"");
		});
	}

}
