package dev.informer.watch;

import java.time.Duration;

/**
 * Told about every resource event an informer delivered to listeners, on the informer's
 * delivery thread: keep it fast. Metrics implement it to time listeners; the default does
 * nothing.
 */
@FunctionalInterface
public interface DeliveryObserver {

	/**
	 * An observer that does nothing.
	 */
	DeliveryObserver NONE = (informer, watch, type, duration, failedListeners) -> {
	};

	/**
	 * An event was delivered to every listener.
	 * @param informer the informer
	 * @param watch the watch that observed the change
	 * @param type the event type
	 * @param duration how long the listeners took, together
	 * @param failedListeners how many listeners threw
	 */
	void delivered(WatchedInformer<?> informer, Watch watch, EventType type, Duration duration,
			int failedListeners);

	/**
	 * Return an observer that tells this one, then the other.
	 * @param other the other observer
	 * @return the combined observer
	 */
	default DeliveryObserver andThen(DeliveryObserver other) {
		if (this == NONE) {
			return other;
		}
		return (informer, watch, type, duration, failedListeners) -> {
			delivered(informer, watch, type, duration, failedListeners);
			other.delivered(informer, watch, type, duration, failedListeners);
		};
	}

}
