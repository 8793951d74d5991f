package dev.informer.test;

import java.util.function.Supplier;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

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

	/**
	 * Return a client of an API server that does not answer
	 * ({@code https://127.0.0.1:1}), failing its first request at once, without retries.
	 * @return the client, to be closed by the test
	 */
	public static KubernetesClient unreachableClient() {
		return new KubernetesClientBuilder()
			.withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1")
				.withRequestRetryBackoffLimit(0)
				.withConnectionTimeout(1000)
				.build())
			.build();
	}

}
