package dev.informer.runtime.listeners;

import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.BooleanSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.AbstractApplicationEventMulticaster;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.core.ResolvableType;

import dev.informer.event.ListenerScope;
import dev.informer.event.ResourceEvent;

/**
 * Delivers informer events to the application's listeners, one listener at a time, so
 * that a listener that throws neither stops the informer nor keeps other listeners from
 * the event.
 * <p>
 * The context's own {@code applicationEventMulticaster} stops at the first listener that
 * throws and is the application's to configure, so it is left alone: this publisher finds
 * the same listeners (every {@code @EventListener} method and {@link ApplicationListener}
 * bean, with their conditions and order) and invokes them itself.
 *
 * @since 0.1.0
 */
public class InformerEventPublisher {

	private static final Log logger = LogFactory.getLog(InformerEventPublisher.class);

	private final ListenerLookup listeners = new ListenerLookup();

	private final Set<ApplicationContext> contexts = Collections.newSetFromMap(new IdentityHashMap<>());

	private volatile ListenerScope scope = ListenerScope.NONE;

	/**
	 * Wrap the delivery of each resource event to the listeners in a scope (an
	 * observation, MDC keys).
	 * @param scope the scope
	 */
	public void setListenerScope(ListenerScope scope) {
		this.scope = scope;
	}

	/**
	 * Register a listener.
	 * @param listener the listener
	 */
	public void addListener(ApplicationListener<?> listener) {
		this.listeners.addApplicationListener(listener);
	}

	/**
	 * Register the listeners of an application context: its {@code @EventListener}
	 * methods and its {@link ApplicationListener} beans, once however often called. Call
	 * once all singletons exist, before the first event is published.
	 * @param context the application context
	 */
	public synchronized void addListenersOf(ApplicationContext context) {
		if (!this.contexts.add(context)) {
			// the delivery coordinator and the informers' lifecycle both ask, whichever
			// publishes first; a context stopped and started again asks again
			return;
		}
		if (context instanceof AbstractApplicationContext abstractContext) {
			abstractContext.getApplicationListeners().forEach(this.listeners::addApplicationListener);
		}
		BeanFactory beanFactory = context.getAutowireCapableBeanFactory();
		this.listeners.setBeanFactory(beanFactory);
		for (String name : context.getBeanNamesForType(ApplicationListener.class, true, false)) {
			this.listeners.addApplicationListenerBean(name);
		}
	}

	/**
	 * Deliver an event to every listener that supports it. Failures are logged and
	 * counted, never thrown.
	 * @param event the event
	 * @return the number of listeners that threw
	 */
	public int publish(ApplicationEvent event) {
		return publish(event, () -> true);
	}

	/**
	 * Deliver an event to every listener that supports it while {@code proceed} holds:
	 * checked before each listener, so that an event being delivered when its informer
	 * stops reaches no further listener. Failures are logged and counted, never thrown.
	 * @param event the event
	 * @param proceed whether to go on to the next listener
	 * @return the number of listeners that threw
	 */
	public int publish(ApplicationEvent event, BooleanSupplier proceed) {
		if (!(event instanceof ResourceEvent<?> resourceEvent) || this.scope == ListenerScope.NONE) {
			return publish(event, proceed, ListenerScope.Scope.NONE);
		}
		try (ListenerScope.Scope scope = this.scope.open(resourceEvent)) {
			return publish(event, proceed, scope);
		}
	}

	private int publish(ApplicationEvent event, BooleanSupplier proceed, ListenerScope.Scope scope) {
		int failures = 0;
		for (ApplicationListener<?> listener : this.listeners.listenersFor(event)) {
			if (!proceed.getAsBoolean()) {
				break;
			}
			try {
				invoke(listener, event);
			}
			catch (ClassCastException ex) {
				if (!isUnresolvableLambda(ex, event)) {
					failures++;
					scope.listenerFailed(ex);
					logger.error("Listener " + listener + " failed on " + event
							+ "; later events and other listeners are not affected", ex);
				}
			}
			catch (Throwable ex) {
				failures++;
				scope.listenerFailed(ex);
				logger.error("Listener " + listener + " failed on " + event
						+ "; later events and other listeners are not affected", ex);
			}
		}
		return failures;
	}

	/**
	 * A lambda listener hides its event type, so Spring offers it every event and the
	 * cast in its bridge method fails; Spring's own multicaster ignores that case too.
	 */
	private static boolean isUnresolvableLambda(ClassCastException ex, ApplicationEvent event) {
		String message = ex.getMessage();
		return message == null || message.startsWith(event.getClass().getName())
				|| message.startsWith("class " + event.getClass().getName());
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static void invoke(ApplicationListener listener, ApplicationEvent event) {
		listener.onApplicationEvent(event);
	}

	/**
	 * Finds the listeners of an event with Spring's own matching and caching.
	 */
	private static final class ListenerLookup extends AbstractApplicationEventMulticaster {

		Collection<ApplicationListener<?>> listenersFor(ApplicationEvent event) {
			return getApplicationListeners(event, ResolvableType.forInstance(event));
		}

		@Override
		public void multicastEvent(ApplicationEvent event) {
			throw new UnsupportedOperationException("Use InformerEventPublisher.publish");
		}

		@Override
		public void multicastEvent(ApplicationEvent event, ResolvableType eventType) {
			throw new UnsupportedOperationException("Use InformerEventPublisher.publish");
		}

	}

}
