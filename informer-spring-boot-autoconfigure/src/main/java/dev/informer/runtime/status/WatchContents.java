package dev.informer.runtime.status;

import org.jspecify.annotations.Nullable;

/**
 * What a watch holds now, read on each call: whether fabric8's watch is open, its cache
 * and backlog, the last resourceVersion.
 *
 * @since 0.1.0
 */
public interface WatchContents {

	/**
	 * A watch that holds nothing (not started).
	 */
	WatchContents NONE = new WatchContents() {
	};

	default boolean isOpen() {
		return false;
	}

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
