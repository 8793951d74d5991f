package dev.informer.watch;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Told about every resource event an informer delivered to listeners, on the informer's
 * delivery thread: keep it fast. Metrics implement it to time listeners; the default does
 * nothing.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface DeliveryObserver {

	/**
	 * An observer that does nothing.
	 */
	DeliveryObserver NONE = (informer, namespace, type, duration, failedListeners) -> {
	};

	/**
	 * An event was delivered to every listener.
	 * @param informer the informer's name
	 * @param namespace the namespace of the watch that observed the change, {@code null}
	 * for a watch of all namespaces or of a cluster-scoped kind
	 * @param type the event type
	 * @param duration how long the listeners took, together
	 * @param failedListeners how many listeners threw
	 */
	void delivered(String informer, @Nullable String namespace, EventType type, Duration duration, int failedListeners);

	/**
	 * Return an observer that tells this one, then the other.
	 * @param other the other observer
	 * @return the combined observer
	 */
	default DeliveryObserver andThen(DeliveryObserver other) {
		if (this == NONE) {
			return other;
		}
		return (informer, namespace, type, duration, failedListeners) -> {
			delivered(informer, namespace, type, duration, failedListeners);
			other.delivered(informer, namespace, type, duration, failedListeners);
		};
	}

}
