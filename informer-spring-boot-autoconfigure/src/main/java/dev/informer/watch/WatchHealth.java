package dev.informer.watch;

import org.jspecify.annotations.Nullable;

/**
 * The health of one watch, as {@link WatchHealthPolicy} judges it.
 *
 * @param level the level
 * @param reason why it is not plainly up, for example {@code Forbidden}; {@code null}
 * when synced and watching
 * @since 0.1.0
 */
public record WatchHealth(Level level, @Nullable String reason) {

	/**
	 * Up, without a reason.
	 */
	public static final WatchHealth UP = new WatchHealth(Level.UP, null);

	/**
	 * Health levels, named after the Spring Boot statuses they map to.
	 *
	 * @since 0.1.0
	 */
	public enum Level {

		/**
		 * Synced and watching, or without a watch for less than the grace period.
		 */
		UP,

		/**
		 * Not synced yet (within the startup timeout), or stopped: not ready for traffic,
		 * yet not broken.
		 */
		OUT_OF_SERVICE,

		/**
		 * Failed, not synced after the startup timeout, or without a watch for longer
		 * than the grace period.
		 */
		DOWN

	}

}
