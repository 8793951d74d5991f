package dev.informer.autoconfigure;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.metrics.StartupStep;
import org.springframework.core.task.TaskDecorator;
import org.springframework.util.ClassUtils;

import dev.informer.InformerCustomizer;
import dev.informer.InformerDeclaration;
import dev.informer.InformerRegistry;
import dev.informer.event.ListenerScope;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.Diagnostics;
import dev.informer.runtime.InformerLifecycle;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.TrainingRun;
import dev.informer.runtime.kinds.ResourceKindResolver;
import dev.informer.runtime.listeners.InformerEventListenerFactory;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.listeners.MdcListenerScope;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.watch.ListObserver;
import dev.informer.watch.WatchHealthPolicy;

/**
 * Auto-configuration that turns {@code informer.resources} declarations into running
 * informers publishing typed application events.
 * <p>
 * Ordered after Spring Cloud Kubernetes' fabric8 auto-configuration, so that an
 * application with both has one {@link KubernetesClient}: Spring Cloud Kubernetes' (which
 * honours {@code spring.cloud.kubernetes.client.*}) where it defines one, the starter's
 * otherwise.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.cloud.kubernetes.fabric8.Fabric8AutoConfiguration")
@ConditionalOnClass(KubernetesClient.class)
@ConditionalOnBooleanProperty(name = "informer.enabled", matchIfMissing = true)
@EnableConfigurationProperties(InformerProperties.class)
public final class InformerAutoConfiguration {

	private static final Log logger = LogFactory.getLog(InformerAutoConfiguration.class);

	static final String CLIENT_BEAN_NAME = "informerKubernetesClient";

	/**
	 * The name of the {@link Clock} the informers, health, metrics and the endpoint
	 * share. Not a candidate for injection by type, so that it never competes with a
	 * {@code Clock} of the application; define a bean of this name to replace it.
	 */
	public static final String CLOCK_BEAN_NAME = "informerClock";

	@Bean(name = CLOCK_BEAN_NAME, defaultCandidate = false)
	@ConditionalOnMissingBean(name = CLOCK_BEAN_NAME)
	Clock informerClock() {
		return Clock.systemUTC();
	}

	@Bean
	@ConditionalOnMissingBean
	WatchHealthPolicy informerWatchHealthPolicy(InformerProperties properties) {
		return new WatchHealthPolicy(properties.getHealth().getWatchLossGrace(), properties.getStartup().getTimeout(),
				properties.getHealth().getStaleAfter());
	}

	@Bean(name = CLIENT_BEAN_NAME)
	@ConditionalOnMissingBean
	KubernetesClient informerKubernetesClient(ObjectProvider<KubernetesConnectionDetails> connectionDetails) {
		KubernetesClientBuilder builder = new KubernetesClientBuilder();
		connectionDetails.ifAvailable((details) -> builder.withConfig(details.getConfig()));
		return builder.build();
	}

	// static, and switched by a condition rather than the bound properties: Spring
	// collects event listener factories before it creates other beans
	@Bean
	@ConditionalOnBooleanProperty(name = "informer.events.compile-conditions", matchIfMissing = true)
	static InformerEventListenerFactory informerEventListenerFactory() {
		return new InformerEventListenerFactory();
	}

	// static: it registers bean definitions, before other beans exist
	@Bean
	static InformerCacheBeans informerCacheBeans() {
		return new InformerCacheBeans();
	}

	@Bean
	@ConditionalOnMissingBean
	InformerEventPublisher informerEventPublisher(ObjectProvider<ListenerScope> scopes) {
		InformerEventPublisher publisher = new InformerEventPublisher();
		// the observation outermost, so that MDC keys a tracer adds are in place too
		ListenerScope scope = scopes.orderedStream().reduce(ListenerScope::andThen).orElse(ListenerScope.NONE);
		if (ClassUtils.isPresent("org.slf4j.MDC", getClass().getClassLoader())) {
			scope = scope.andThen(new MdcListenerScope());
		}
		publisher.setListenerScope(scope);
		return publisher;
	}

	@Bean
	@ConditionalOnMissingBean(InformerRegistry.class)
	DefaultInformerRegistry informerRegistry(InformerProperties properties, KubernetesClient client,
			InformerEventPublisher publisher, ConfigurableListableBeanFactory beanFactory,
			@Qualifier(CLOCK_BEAN_NAME) Clock clock, ObjectProvider<KubernetesConnectionDetails> connectionDetails,
			ObjectProvider<ListObserver> listObserver) {
		List<InformerDeclaration> declarations = declarations(properties);
		if (declarations.isEmpty()) {
			return new DefaultInformerRegistry(List.of());
		}
		StartupStep step = beanFactory.getApplicationStartup()
			.start("informer.registry.create")
			.tag("informers", String.join(",", declarations.stream().map(InformerDeclaration::getName).toList()));
		ResourceKindResolver resolver;
		if (TrainingRun.isActive()) {
			logger.info("Training run (spring.context.exit=onRefresh): informer declarations are not checked "
					+ "against the API server, and no informer starts");
			resolver = ResourceKindResolver.withoutServer(beanFactory.getBeanClassLoader());
		}
		else {
			String origin = configOrigin(client, beanFactory, connectionDetails);
			logger.info(ConnectionDescription.of(client, origin));
			// without waiting for sync, a kind with a
			// class can start while discovery is down
			resolver = new ResourceKindResolver(client, Diagnostics.configSource(client, origin),
					beanFactory.getBeanClassLoader(), !properties.getStartup().isWaitForSync());
		}
		boolean failOnForbidden = properties.getStartup().isWaitForSync()
				&& properties.getStartup().isFailOnForbidden();
		RecoveryOptions recovery = recoveryOptions(properties.getReliability());
		List<ResourceInformer<?>> informers = new ArrayList<>();
		try {
			for (InformerDeclaration declaration : declarations) {
				ResourceInformer<?> informer = new ResourceInformer<>(resolver.resolve(declaration), publisher,
						RetryPolicy.standard(failOnForbidden, declaration), recovery, clock);
				informer.setBacklog(properties.getListeners().backlogOptions());
				listObserver.ifUnique(informer::setListObserver);
				informers.add(informer);
			}
		}
		finally {
			step.end();
		}
		return new DefaultInformerRegistry(informers);
	}

	@Bean
	@ConditionalOnMissingBean
	InformerLifecycle informerLifecycle(DefaultInformerRegistry registry, KubernetesClient client,
			InformerEventPublisher publisher, ApplicationContext context, InformerProperties properties,
			ObjectProvider<InformerCustomizer> customizers, ObjectProvider<TaskDecorator> taskDecorator,
			Environment environment) {
		InformerProperties.Startup startup = properties.getStartup();
		InformerLifecycle lifecycle = new InformerLifecycle(registry, client, publisher, context,
				customizers.orderedStream().toList(),
				new InformerLifecycle.StartupOptions(startup.isWaitForSync(), startup.getTimeout(),
						startup.isFailOnTimeout(), startup.getMaxConcurrentLists(),
						properties.getListeners().getMaxThreads()));
		lifecycle.setListenerExecutor(
				ListenerExecutorFactory.create(properties, context.getAutowireCapableBeanFactory(), environment));
		lifecycle.setTaskDecorator(taskDecorator.getIfUnique());
		lifecycle.setStalenessCheckPeriod(properties.getHealth().getStalenessCheckPeriod());
		return lifecycle;
	}

	@Bean
	@ConditionalOnMissingBean
	DeliveryCoordinator informerDeliveryCoordinator(DefaultInformerRegistry registry, KubernetesClient client,
			InformerEventPublisher publisher, InformerProperties properties, Environment environment,
			@Qualifier(CLOCK_BEAN_NAME) Clock clock) {
		// the informers' clock: Lease times are written and judged with it
		return new DeliveryCoordinator(registry.informers(), client, publisher,
				DeliveryOptionsFactory.create(properties, environment, registry.names()), clock);
	}

	private static @Nullable String configOrigin(KubernetesClient client, ConfigurableListableBeanFactory beanFactory,
			ObjectProvider<KubernetesConnectionDetails> connectionDetails) {
		if (!beanFactory.containsBean(CLIENT_BEAN_NAME) || beanFactory.getBean(CLIENT_BEAN_NAME) != client) {
			return "the application's KubernetesClient bean";
		}
		KubernetesConnectionDetails details = connectionDetails.getIfAvailable();
		return (details != null) ? "KubernetesConnectionDetails " + details.getClass().getName() : null;
	}

	static RecoveryOptions recoveryOptions(InformerProperties.Reliability reliability) {
		// validated with the properties
		return new RecoveryOptions(reliability.getReplaceStalledAfter(), reliability.getWatchAvailabilityWindow(), 0.5,
				RecoveryOptions.backOff(reliability.getBackoffInitialInterval(), reliability.getBackoffMaxInterval()),
				reliability.getRestartSilentWatchAfter());
	}

	static List<InformerDeclaration> declarations(InformerProperties properties) {
		List<InformerDeclaration> declarations = new ArrayList<>();
		for (Map.Entry<String, InformerProperties.Resource> entry : properties.getResources().entrySet()) {
			InformerProperties.Resource resource = entry.getValue();
			if (!resource.isEnabled()) {
				continue;
			}
			declarations.add(InformerDeclaration.builder(entry.getKey())
				.apiVersion(resource.getApiVersion())
				.kind(resource.getKind())
				.type(resource.getType())
				.namespaces(resource.getNamespaces())
				.labelSelector(resource.getLabelSelector())
				.fieldSelector(resource.getFieldSelector())
				.namespaceSelector(resource.getNamespaceSelector())
				.resyncPeriod((resource.getResyncPeriod() != null) ? resource.getResyncPeriod()
						: properties.getResyncPeriod())
				.listPageSize((resource.getListPageSize() != null) ? resource.getListPageSize()
						: properties.getListPageSize())
				.stripManagedFields((resource.getStripManagedFields() != null) ? resource.getStripManagedFields()
						: properties.isStripManagedFields())
				.cache(resource.getCache())
				.onChange(resource.getOnChange())
				.prune(resource.getPrune())
				.indexes(resource.getIndexes())
				.watchList(properties.isWatchList())
				.compressLists(properties.isCompressLists())
				.build());
		}
		return declarations;
	}

}
