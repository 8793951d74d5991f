package dev.informer.watch;

import java.time.Instant;

/**
 * An error seen by a watch.
 *
 * @param at when it happened
 * @param httpCode the HTTP status, 0 when there was none (connection failure)
 * @param reason the API server's reason, for example {@code Forbidden}
 * @param message the message
 * @since 0.1.0
 */
public record WatchError(Instant at, int httpCode, String reason, String message) {

}
