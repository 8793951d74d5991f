package dev.informer.autoconfigure;

import java.util.concurrent.Executor;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanNotOfRequiredTypeException;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.thread.Threading;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * Chooses where listeners run: the {@link Executor} bean
 * {@code informer.listeners.executor} names; else, with
 * {@code spring.threads.virtual.enabled=true} on Java 21 or later, a virtual thread per
 * task (detected at run time: on Java 17 the property is ignored, as Spring Boot ignores
 * it); else {@code null}, the starter's own threads
 * ({@code informer.listeners.max-threads}).
 */
final class ListenerExecutorFactory {

	static final String PROPERTY = InformerProperties.LISTENERS + "executor";

	/** The prefix of the names of virtual listener threads. */
	static final String VIRTUAL_THREAD_PREFIX = "informer-listener-virtual-";

	private ListenerExecutorFactory() {
	}

	static @Nullable Executor create(InformerProperties properties, BeanFactory beanFactory, Environment environment) {
		String name = properties.getListeners().getExecutor();
		if (name != null) {
			String property = properties.nameOf(PROPERTY);
			try {
				return beanFactory.getBean(name, Executor.class);
			}
			catch (BeanNotOfRequiredTypeException ex) {
				throw new InvalidConfigurationPropertyValueException(property, name,
						"names a bean of type " + ex.getActualType().getName()
								+ ", not a java.util.concurrent.Executor; "
								+ "name a TaskExecutor bean, for example 'applicationTaskExecutor'");
			}
			catch (NoSuchBeanDefinitionException ex) {
				throw new InvalidConfigurationPropertyValueException(property, name,
						"names no bean; name a TaskExecutor bean, for example 'applicationTaskExecutor', "
								+ "or remove the property to use the starter's own threads");
			}
		}
		if (Threading.VIRTUAL.isActive(environment)) {
			return new VirtualThreadTaskExecutor(VIRTUAL_THREAD_PREFIX);
		}
		return null;
	}

}
