package dev.informer.watch;

/**
 * Told when an informer declared with a {@code namespace-selector} adds or removes a
 * watch at runtime, as namespaces join and leave its selection. Metrics implement it to
 * register and remove the meters of each watch, so that the meters of namespaces that
 * left do not pile up.
 *
 * @since 0.1.0
 */
public interface WatchSetObserver {

	/**
	 * A watch was added (its namespace joined); it has not started yet.
	 * @param informer the informer
	 * @param watch the watch
	 */
	void watchAdded(WatchedInformer<?> informer, Watch watch);

	/**
	 * A watch was removed (its namespace left) and has stopped: nothing more is delivered
	 * from it.
	 * @param informer the informer
	 * @param watch the watch
	 */
	void watchRemoved(WatchedInformer<?> informer, Watch watch);

}
