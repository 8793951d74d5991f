package dev.informer.autoconfigure;

import java.util.List;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.AutowireCapableBeanFactory;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

import dev.informer.InformerDeclaration;
import dev.informer.InformerRegistry;
import dev.informer.ResourceCache;
import dev.informer.runtime.kinds.ResourceKindResolver;

/**
 * Registers one {@code ResourceCache<T>} bean per declared informer, typed with the class
 * its objects are read into and qualified with the informer's name, so that
 * {@code @Qualifier("pods") ResourceCache<Pod> pods} injects the cache of
 * {@code informer.resources.pods}. The class comes from the declaration alone (its
 * {@code type}, fabric8's model class of the kind, {@code GenericKubernetesResource} or,
 * for {@code cache: metadata}, {@code PartialObjectMetadata}); the cache itself is the
 * registry's. A declaration that cannot work registers nothing here: creating the
 * registry then fails with the property to fix.
 */
final class InformerCacheBeans implements BeanDefinitionRegistryPostProcessor, EnvironmentAware, BeanClassLoaderAware {

	/** The prefix of the beans' names, followed by the informer's name. */
	static final String BEAN_NAME_PREFIX = "informerCache.";

	private @Nullable Environment environment;

	private @Nullable ClassLoader classLoader;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void setBeanClassLoader(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	@Override
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
		if (this.environment == null) {
			return;
		}
		InformerProperties properties;
		try {
			properties = Binder.get(this.environment)
				.bind("informer", InformerProperties.class)
				.orElseGet(InformerProperties::new);
		}
		catch (RuntimeException ex) {
			// binding the properties bean fails with the reason
			return;
		}
		ResourceKindResolver resolver = ResourceKindResolver.withoutServer(this.classLoader);
		for (InformerDeclaration declaration : declarations(properties)) {
			Class<? extends HasMetadata> type;
			try {
				type = resolver.resolve(declaration).getResourceClass();
			}
			catch (RuntimeException ex) {
				// the registry resolves it again and fails with the reason
				continue;
			}
			String name = declaration.getName();
			String beanName = BEAN_NAME_PREFIX + name;
			if (registry.containsBeanDefinition(beanName)) {
				continue;
			}
			// a factory method, not an instance supplier: Spring's AOT processing writes
			// it
			// as code (InformerAotProcessingTests), where it cannot write a lambda
			RootBeanDefinition definition = new RootBeanDefinition(InformerCacheBeans.class);
			definition.setFactoryMethodName("cache");
			definition.getConstructorArgumentValues().addIndexedArgumentValue(0, name);
			definition.setAutowireMode(AutowireCapableBeanFactory.AUTOWIRE_CONSTRUCTOR);
			definition.setTargetType(ResolvableType.forClassWithGenerics(ResourceCache.class, type));
			definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, name));
			definition.setLazyInit(true);
			registry.registerBeanDefinition(beanName, definition);
		}
	}

	/**
	 * The cache of an informer: the factory method of each {@code ResourceCache<T>} bean.
	 * @param name the informer's name
	 * @param registry the registry that holds it
	 * @return its cache
	 */
	static ResourceCache<?> cache(String name, InformerRegistry registry) {
		return registry.informer(name).getCache();
	}

	private static List<InformerDeclaration> declarations(InformerProperties properties) {
		try {
			return InformerAutoConfiguration.declarations(properties);
		}
		catch (RuntimeException ex) {
			// a declaration that cannot work: the registry fails with it
			return List.of();
		}
	}

}
