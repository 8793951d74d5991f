package dev.informer.test;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
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
 *
 * @since 0.1.0
 */
@AutoConfiguration(before = InformerAutoConfiguration.class)
@EnableConfigurationProperties(InformerTestProperties.class)
public final class InformerTestAutoConfiguration {

	private static final Log logger = LogFactory.getLog(InformerTestAutoConfiguration.class);

	/**
	 * The property that chooses the server when {@link InformerTest#server()} is left at
	 * {@link Server#AUTO}.
	 */
	static final String SERVER_PROPERTY = "informer.test.server";

	/**
	 * The property that makes the informers run as a user with only the RBAC they need.
	 */
	static final String RESTRICTED_PROPERTY = "informer.test.restricted";

	@Bean
	@ConditionalOnMissingBean(KubernetesConnectionDetails.class)
	KubernetesConnectionDetails informerTestApiServer(InformerTestProperties properties) {
		Server requested = properties.getServer();
		Server server = resolve(requested, RealApiServer.isInstalled());
		logger.info(choice(requested, server));
		return switch (server) {
			case REAL -> RealApiServer.get();
			case CLUSTER -> ControlPlane.shared();
			default -> new MockApiServer();
		};
	}

	/**
	 * Say which server a test uses and why.
	 * @param requested the server the test asked for
	 * @param server the server it gets
	 * @return the line to log
	 */
	static String choice(Server requested, Server server) {
		String which = switch (server) {
			case REAL -> "a real kube-apiserver and etcd";
			case CLUSTER -> "a real control plane (two kube-apiservers, controllers, scheduler, kwok nodes)";
			default -> "fabric8's mock API server";
		};
		if (requested != Server.AUTO) {
			return "Informer test uses " + which + ": " + SERVER_PROPERTY + "="
					+ requested.name().toLowerCase(Locale.ROOT)
					+ " (or @InformerTest/@AutoConfigureInformerTest(server = " + requested + "))";
		}
		if (server == Server.REAL) {
			return "Informer test uses " + which + ": " + SERVER_PROPERTY
					+ " is auto and their binaries are installed in " + RealApiServer.binaryRoot() + " (set "
					+ SERVER_PROPERTY + "=mock for the mock server)";
		}
		return "Informer test uses " + which + ": " + SERVER_PROPERTY + " is auto and there are no kube-apiserver "
				+ "and etcd binaries in " + RealApiServer.binaryRoot() + " (scripts/envtest.sh builds them; set "
				+ SERVER_PROPERTY + "=real to fail instead)";
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
	KubernetesClient informerTestAdminClient(KubernetesConnectionDetails connectionDetails,
			InformerTestProperties properties, ResourceLoader resourceLoader) {
		Config config = connectionDetails.getConfig();
		String namespace = properties.getNamespace();
		if (namespace != null) {
			config.setNamespace(namespace);
		}
		KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
		if (namespace != null && client.namespaces().withName(namespace).get() == null) {
			client.namespaces()
				.resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
				.create();
		}
		List<Resource> manifests = properties.getManifests().stream().map(resourceLoader::getResource).toList();
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
			@AdminClient KubernetesClient admin, InformerTestProperties properties) {
		Config config = connectionDetails.getConfig();
		config.setNamespace(admin.getNamespace());
		if (properties.isRestricted()) {
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
			InformerTestProperties properties) {
		InformerRegistry informers = registry.getIfAvailable();
		if (informers == null || client.getConfiguration().getImpersonateUsername() == null) {
			return null;
		}
		Set<String> ungranted = Set.copyOf(properties.getRestrictedUngrantedInformers());
		// the Leases of informer.replicas.mode leader
		// or sharded, as production grants them
		DeliveryStatusSource source = delivery.getIfAvailable();
		DeliverySnapshot leases = (source != null) ? source.snapshot() : null;
		return RestrictedAccess.grant(admin, client, informers, ungranted, leases, InformerEvents.DEFAULT_TIMEOUT);
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
