package dev.informer.runtime.listeners;

import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

import dev.informer.event.ListenerScope;
import dev.informer.event.ResourceEvent;

/**
 * Puts the informer and the object into SLF4J's MDC while listeners handle an event, so
 * that their log lines say which object they are about: {@value #INFORMER} (the informer
 * name) and {@value #OBJECT} ({@code namespace/name}, or the name of a cluster-scoped
 * object). Values the thread had under those keys are restored afterwards.
 *
 * @since 0.1.0
 */
public final class MdcListenerScope implements ListenerScope {

	/** The MDC key of the informer name. */
	public static final String INFORMER = "informer";

	/** The MDC key of the object, {@code namespace/name}. */
	public static final String OBJECT = "informer.object";

	@Override
	public Scope open(ResourceEvent<?> event) {
		String namespace = event.getNamespace();
		String object = (namespace != null) ? namespace + "/" + event.getName() : String.valueOf(event.getName());
		@Nullable String previousInformer = MDC.get(INFORMER);
		@Nullable String previousObject = MDC.get(OBJECT);
		MDC.put(INFORMER, event.getInformerName());
		MDC.put(OBJECT, object);
		return () -> {
			restore(INFORMER, previousInformer);
			restore(OBJECT, previousObject);
		};
	}

	private static void restore(String key, @Nullable String previous) {
		if (previous != null) {
			MDC.put(key, previous);
		}
		else {
			MDC.remove(key);
		}
	}

}
