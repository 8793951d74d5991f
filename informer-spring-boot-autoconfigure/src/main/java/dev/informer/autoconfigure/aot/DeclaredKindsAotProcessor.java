package dev.informer.autoconfigure.aot;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.ResolvableType;

import dev.informer.ResourceCache;

/**
 * Sees the kinds an application declares when Spring processes it ahead of time, and
 * registers the runtime hints of their model classes: fabric8's class of the kind (and
 * its list class), a declared {@code type}, {@code GenericKubernetesResource} for a kind
 * without a class, {@code PartialObjectMetadata} for {@code cache: metadata}. It reads
 * them from the {@code ResourceCache<T>} bean the starter registers for each declared
 * informer, whose {@code T} is the class the informer's objects are read into.
 */
public final class DeclaredKindsAotProcessor implements BeanFactoryInitializationAotProcessor {

	@Override
	public @Nullable BeanFactoryInitializationAotContribution processAheadOfTime(
			ConfigurableListableBeanFactory beanFactory) {
		List<Class<?>> kinds = new ArrayList<>(declaredKinds(beanFactory));
		if (kinds.isEmpty()) {
			return null;
		}
		return (generationContext, code) -> ModelHints.register(generationContext.getRuntimeHints(), kinds);
	}

	/**
	 * The classes of the declared informers' objects.
	 * @param beanFactory the application's bean factory, before its beans are created
	 * @return the classes, each once
	 */
	static Set<Class<?>> declaredKinds(ConfigurableListableBeanFactory beanFactory) {
		Set<Class<?>> kinds = new LinkedHashSet<>();
		ResolvableType cache = ResolvableType.forClass(ResourceCache.class);
		for (String name : beanFactory.getBeanDefinitionNames()) {
			ResolvableType type = beanFactory.getMergedBeanDefinition(name).getResolvableType();
			if (cache.isAssignableFrom(type)) {
				Class<?> kind = type.as(ResourceCache.class).getGeneric(0).resolve();
				if (kind != null) {
					kinds.add(kind);
				}
			}
		}
		return kinds;
	}

}
