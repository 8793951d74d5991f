package dev.informer.test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

import dev.informer.InformerRegistry;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.autoconfigure.InformerProperties;
import dev.informer.autoconfigure.KubernetesConnectionDetails;
import dev.informer.test.InformerTest.Server;
import dev.informer.watch.DeliverySnapshot;
import dev.informer.watch.DeliveryStatusSource;

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

	/**
	 * The property that lists the manifests to create before the informers start.
	 */
	static final String MANIFESTS_PROPERTY = "informer.test.manifests";

	/**
	 * The property that makes the informers run as a user with only the RBAC they need.
	 */
	static final String RESTRICTED_PROPERTY = "informer.test.restricted";

	/**
	 * The property that names informers whose rules the restricted user is not granted,
	 * to prove that the application fails clearly when its RBAC lags its declarations.
	 */
	static final String UNGRANTED_PROPERTY = "informer.test.restricted-ungranted-informers";

	@Bean
	@ConditionalOnMissingBean(KubernetesConnectionDetails.class)
	KubernetesConnectionDetails informerTestApiServer(Environment environment) {
		Server server = resolve(Binder.get(environment).bind(SERVER_PROPERTY, Server.class).orElse(Server.AUTO),
				RealApiServer.isInstalled());
		return switch (server) {
			case REAL -> RealApiServer.get();
			case CLUSTER -> ControlPlane.shared();
			default -> new MockApiServer();
		};
	}

	/**
	 * Resolve {@link Server#AUTO} to the server to start.
	 * @param requested the server the test asked for
	 * @param realServerInstalled whether the real server's binaries are installed
	 * @return {@link Server#REAL} or {@link Server#MOCK}, or the requested server
	 */
	static Server resolve(Server requested, boolean realServerInstalled) {
		if (requested != Server.AUTO) {
			return requested;
		}
		return realServerInstalled ? Server.REAL : Server.MOCK;
	}

	/**
	 * The client with admin rights: it creates the test's namespace and the manifests'
	 * objects before the informers start, and is the test's
	 * {@link AdminClient @AdminClient}.
	 */
	@Bean(defaultCandidate = false)
	@AdminClient
	KubernetesClient informerTestAdminClient(KubernetesConnectionDetails connectionDetails, Environment environment,
			ResourceLoader resourceLoader) {
		Config config = connectionDetails.getConfig();
		String namespace = environment.getProperty(TestNamespaceContextCustomizerFactory.NAMESPACE_PROPERTY);
		if (namespace != null) {
			config.setNamespace(namespace);
		}
		KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
		if (namespace != null && client.namespaces().withName(namespace).get() == null) {
			client.namespaces()
				.resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
				.create();
		}
		List<Resource> manifests = Binder.get(environment)
			.bind(MANIFESTS_PROPERTY, Bindable.listOf(String.class))
			.orElse(List.of())
			.stream()
			.map(resourceLoader::getResource)
			.toList();
		Manifests.apply(client, manifests, InformerEvents.DEFAULT_TIMEOUT);
		return client;
	}

	/**
	 * The application's client, which the informers use: the admin's configuration, or
	 * with {@link InformerTest#restricted()} one that impersonates a user who has only
	 * what the informers need.
	 */
	@Bean
	@ConditionalOnMissingBean
	KubernetesClient informerTestKubernetesClient(KubernetesConnectionDetails connectionDetails,
			@AdminClient KubernetesClient admin, Environment environment) {
		Config config = connectionDetails.getConfig();
		config.setNamespace(admin.getNamespace());
		if (isRestricted(environment)) {
			if (connectionDetails instanceof MockApiServer) {
				throw new IllegalStateException("@InformerTest(restricted = true) needs a server that enforces RBAC: "
						+ "fabric8's mock server allows everything. Use @InformerTest(server = Server.REAL) or a K3s "
						+ "@ServiceConnection.");
			}
			config.setImpersonateUsername(restrictedUser(admin.getNamespace()));
		}
		return new KubernetesClientBuilder().withConfig(config).build();
	}

	/**
	 * Grants the restricted user the rules of the informers, after they were resolved and
	 * before they start.
	 */
	@Bean
	@ConditionalOnBooleanProperty(RESTRICTED_PROPERTY)
	@Nullable RestrictedAccess informerTestRestrictedAccess(@AdminClient KubernetesClient admin, KubernetesClient client,
			ObjectProvider<InformerRegistry> registry, ObjectProvider<DeliveryStatusSource> delivery,
			Environment environment) {
		InformerRegistry informers = registry.getIfAvailable();
		if (informers == null || client.getConfiguration().getImpersonateUsername() == null) {
			return null;
		}
		Set<String> ungranted = Set
			.copyOf(Binder.get(environment).bind(UNGRANTED_PROPERTY, Bindable.listOf(String.class)).orElse(List.of()));
		// the Leases of informer.delivery.mode leader or sharded, as production grants
		// them
		DeliveryStatusSource source = delivery.getIfAvailable();
		DeliverySnapshot leases = (source != null) ? source.snapshot() : null;
		return RestrictedAccess.grant(admin, client, informers, ungranted, leases, InformerEvents.DEFAULT_TIMEOUT);
	}

	private static boolean isRestricted(Environment environment) {
		return environment.getProperty(RESTRICTED_PROPERTY, Boolean.class, false);
	}

	/**
	 * Return the user a restricted test impersonates: one per namespace, so that the
	 * cluster-wide grants of test contexts that run at once stay apart.
	 * @param namespace the test's namespace
	 * @return the user name
	 */
	static String restrictedUser(@Nullable String namespace) {
		return "informer-test-user:" + ((namespace != null) ? namespace : "default");
	}

	@Bean
	@ConditionalOnMissingBean
	InformerEvents informerEvents(ObjectProvider<InformerProperties> properties) {
		Set<String> informers = new TreeSet<>();
		properties.ifAvailable((available) -> available.getResources().forEach((name, resource) -> {
			if (resource.isEnabled()) {
				informers.add(name);
			}
		}));
		return new InformerEvents(informers);
	}

}
