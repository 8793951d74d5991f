package dev.informer.runtime.status;

import org.jspecify.annotations.Nullable;

/**
 * What a watch holds now, read on each call: its cache and backlog, the last
 * resourceVersion. Whether its watch is open is not here: the monitor samples it into the
 * status, so that every reader gets the same answer.
 *
 * @since 0.1.0
 */
public interface WatchContents {

	/**
	 * A watch that holds nothing (not started).
	 */
	WatchContents NONE = new WatchContents() {
	};

	default int cacheSize() {
		return 0;
	}

	default long backlog() {
		return 0;
	}

	default boolean backlogAtBound() {
		return false;
	}

	default @Nullable String lastResourceVersion() {
		return null;
	}

}
