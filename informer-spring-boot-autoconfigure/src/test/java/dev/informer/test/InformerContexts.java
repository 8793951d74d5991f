package dev.informer.test;

import java.util.function.Supplier;

import io.fabric8.kubernetes.client.KubernetesClient;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.autoconfigure.InformerAutoConfiguration;

/**
 * The set-up most tests share: a context runner with the informer auto-configuration and
 * a client of the test's (mock or real) API server, which the context must not close. A
 * test class adds what it varies: listeners, properties, other auto-configurations.
 */
public final class InformerContexts {

	private InformerContexts() {
	}

	/**
	 * Return a runner with the informer auto-configuration and the given client.
	 * @param client the client, owned by the test
	 * @return the runner
	 */
	public static ApplicationContextRunner runner(Supplier<KubernetesClient> client) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesClient.class, client, (definition) -> definition.setDestroyMethodName(""));
	}

}
