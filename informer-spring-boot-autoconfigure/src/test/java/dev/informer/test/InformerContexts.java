package dev.informer.test;

import java.util.function.Supplier;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.health.InformersHealthContributor;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.watch.Watch;

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
	 * Return a runner like {@link #runner(Supplier)} with a {@link RecordingListener}
	 * bean and one declaration, {@code configmaps}, of ConfigMaps in the given
	 * namespaces: the set-up of a test that drives one informer through a (fault) server
	 * and reads what its listeners received.
	 * @param client the client, owned by the test
	 * @param namespaces the declaration's {@code namespaces} value
	 * @return the runner
	 */
	public static ApplicationContextRunner configMaps(Supplier<KubernetesClient> client, String namespaces) {
		return runner(client).withBean(RecordingListener.class)
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + namespaces);
	}

	/**
	 * Return the informer of the {@code configmaps} declaration.
	 * @param context the context of a {@link #configMaps} runner
	 * @return the informer
	 */
	public static ResourceInformer<?> informer(ApplicationContext context) {
		return context.getBean(DefaultInformerRegistry.class).informer("configmaps");
	}

	/**
	 * Return the first (for one namespace, the only) watch of the {@code configmaps}
	 * declaration.
	 * @param context the context of a {@link #configMaps} runner
	 * @return the watch
	 */
	public static Watch watch(ApplicationContext context) {
		return informer(context).getWatches().get(0);
	}

	/**
	 * Return the listener that records what the context published.
	 * @param context the context of a {@link #configMaps} runner
	 * @return the listener
	 */
	public static RecordingListener listener(ApplicationContext context) {
		return context.getBean(RecordingListener.class);
	}

	/**
	 * Return the health indicator of the {@code configmaps} declaration, for a context
	 * with the health contributor's auto-configuration.
	 * @param context the context
	 * @return the indicator
	 */
	public static HealthIndicator health(ApplicationContext context) {
		return (HealthIndicator) context.getBean(InformersHealthContributor.class).getContributor("configmaps");
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
