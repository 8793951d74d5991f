package dev.informer;

/**
 * The state of one watch (one namespace of an informer, or all of it).
 *
 * @since 0.1.0
 */
public enum InformerState {

	/**
	 * Created, the first list has not started.
	 */
	STARTING,

	/**
	 * Running the initial list.
	 */
	LISTING,

	/**
	 * Synced and watching for changes.
	 */
	WATCHING,

	/**
	 * The watch was lost; reconnecting from the last resourceVersion, with backoff.
	 */
	RECONNECTING,

	/**
	 * Listing again after 410 Gone or an error, to rebuild the cache.
	 */
	RELISTING,

	/**
	 * Stopped by the application.
	 */
	STOPPED,

	/**
	 * Stopped by an error it will not retry.
	 */
	FAILED

}
