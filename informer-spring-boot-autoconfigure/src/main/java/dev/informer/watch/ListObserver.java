package dev.informer.watch;

import org.jspecify.annotations.Nullable;

/**
 * Observes the lists of each watch: the initial list and every relist, from the request
 * until fabric8 has cached what it returned (retries of a failed list included). The
 * starter records an {@code informer.list} observation with it.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ListObserver {

	/**
	 * An observer that does nothing.
	 */
	ListObserver NONE = (informer, namespace, relist) -> Listing.NONE;

	/**
	 * Hear that a list starts.
	 * @param informer the informer name
	 * @param namespace the watched namespace, {@code null} for all or cluster scope
	 * @param relist whether the watch had synced before (a relist), else the initial list
	 * @return the list in progress, told how it ends
	 */
	Listing listStarted(String informer, @Nullable String namespace, boolean relist);

	/**
	 * One list in progress.
	 */
	interface Listing {

		/**
		 * A list nobody observes.
		 */
		Listing NONE = () -> {
		};

		/**
		 * Hear that an attempt failed; fabric8 may try again.
		 * @param failure the failure
		 */
		default void failed(Throwable failure) {
		}

		/**
		 * Hear that the list ended: cached, or abandoned with its informer.
		 */
		void ended();

	}

}
