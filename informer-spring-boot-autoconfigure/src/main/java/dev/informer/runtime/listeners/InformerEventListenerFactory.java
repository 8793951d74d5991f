package dev.informer.runtime.listeners;

import java.lang.reflect.Method;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.EventListener;
import org.springframework.context.event.EventListenerFactory;
import org.springframework.core.KotlinDetector;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.util.Assert;

import dev.informer.event.DeliveryRoleChangedEvent;
import dev.informer.event.InformerNamespaceChangedEvent;
import dev.informer.event.InformerStateChangedEvent;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourcesReplayedEvent;

/**
 * Creates an {@link InformerListenerMethodAdapter} for every {@code @EventListener}
 * method that only listens to informer events: informers publish often, and Spring's
 * adapter interprets a {@code condition} and looks the bean up again for every event.
 * Other listener methods are left to Spring's factories, and the application's SpEL
 * compiler mode is left alone.
 * <p>
 * Only methods annotated with {@code @EventListener} itself are supported: a composed
 * annotation such as {@code @TransactionalEventListener} belongs to the factory of its
 * library. Ordered after Spring's {@code TransactionalEventListenerFactory} (50) and
 * before the {@code DefaultEventListenerFactory}.
 *
 * @since 0.1.0
 */
public class InformerEventListenerFactory
		implements EventListenerFactory, Ordered, BeanFactoryAware, BeanClassLoaderAware {

	/**
	 * The order of this factory.
	 */
	public static final int ORDER = 100;

	private static final List<Class<?>> INFORMER_EVENTS = List.of(ResourceEvent.class, ResourcesReplayedEvent.class,
			InformerSyncedEvent.class, InformerStateChangedEvent.class, InformerNamespaceChangedEvent.class,
			DeliveryRoleChangedEvent.class);

	private @Nullable BeanFactory beanFactory;

	private @Nullable ClassLoader classLoader;

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public void setBeanClassLoader(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public boolean supportsMethod(Method method) {
		MergedAnnotation<EventListener> listener = MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY)
			.get(EventListener.class);
		if (!listener.isDirectlyPresent() || KotlinDetector.isSuspendingFunction(method)) {
			return false;
		}
		Class<?>[] eventTypes = listener.getClassArray("classes");
		if (eventTypes.length == 0) {
			if (method.getParameterCount() != 1) {
				return false;
			}
			eventTypes = method.getParameterTypes();
		}
		for (Class<?> eventType : eventTypes) {
			if (!isInformerEvent(eventType)) {
				return false;
			}
		}
		return true;
	}

	static boolean isInformerEvent(Class<?> eventType) {
		for (Class<?> informerEvent : INFORMER_EVENTS) {
			if (informerEvent.isAssignableFrom(eventType)) {
				return true;
			}
		}
		return false;
	}

	@Override
	public ApplicationListener<?> createApplicationListener(String beanName, Class<?> type, Method method) {
		Assert.state(this.beanFactory != null, "No BeanFactory set");
		return new InformerListenerMethodAdapter(beanName, type, method, this.beanFactory, this.classLoader);
	}

}
