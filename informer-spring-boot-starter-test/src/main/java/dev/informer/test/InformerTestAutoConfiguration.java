package dev.informer.test;

import java.util.Set;
import java.util.TreeSet;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.autoconfigure.InformerProperties;
import dev.informer.test.InformerTest.Server;

/**
 * Auto-configuration of {@link InformerTest @InformerTest}: the Kubernetes API server, a
 * {@link KubernetesClient} for it that the informers use, and {@link InformerEvents}.
 * Ordered before {@link InformerAutoConfiguration} so that the informers use this client.
 */
@AutoConfiguration(before = InformerAutoConfiguration.class)
public final class InformerTestAutoConfiguration {

	/**
	 * The property that chooses the server when {@link InformerTest#server()} is left at
	 * {@link Server#AUTO}.
	 */
	static final String SERVER_PROPERTY = "informer.test.server";

	@Bean
	@ConditionalOnMissingBean(KubernetesConnectionDetails.class)
	KubernetesConnectionDetails informerTestApiServer(Environment environment) {
		Server server = environment.getProperty(SERVER_PROPERTY, Server.class, Server.AUTO);
		if (server == Server.REAL || (server == Server.AUTO && RealApiServer.isInstalled())) {
			return RealApiServer.get();
		}
		return new MockApiServer();
	}

	@Bean
	@ConditionalOnMissingBean
	KubernetesClient informerTestKubernetesClient(KubernetesConnectionDetails connectionDetails,
			Environment environment) {
		Config config = connectionDetails.getConfig();
		String namespace = environment.getProperty(TestNamespaceContextCustomizerFactory.NAMESPACE_PROPERTY);
		if (namespace != null) {
			config.setNamespace(namespace);
		}
		KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
		if (namespace != null && client.namespaces().withName(namespace).get() == null) {
			client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
				.create();
		}
		return client;
	}

	@Bean
	@ConditionalOnMissingBean
	InformerEvents informerEvents(ObjectProvider<InformerProperties> properties) {
		Set<String> informers = new TreeSet<>();
		properties.ifAvailable((available) -> available.getResources()
			.forEach((name, resource) -> {
				if (resource.isEnabled()) {
					informers.add(name);
				}
			}));
		return new InformerEvents(informers);
	}

}
