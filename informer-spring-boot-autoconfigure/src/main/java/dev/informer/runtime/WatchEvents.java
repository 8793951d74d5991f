package dev.informer.runtime;

import dev.informer.InformerState;
import dev.informer.runtime.status.WatchStatus;

/**
 * What a watch ({@link ResourceWatch}) tells its informer.
 */
interface WatchEvents {

	/**
	 * The watch's initial list has been delivered.
	 */
	void synced();

	/**
	 * The watch's state changed; told in order with its events.
	 * @param status the watch's status
	 * @param previous the state before
	 * @param current the state now
	 * @param cause why
	 */
	void stateChanged(WatchStatus status, InformerState previous, InformerState current, String cause);

	/**
	 * The watch's cache changed, or its resourceVersion was seen moving (a bookmark);
	 * told on the thread that changed it (fabric8's) or sampled it.
	 */
	void cacheChanged();

}
