package dev.informer.watch;

import java.time.Duration;
import java.time.Instant;

/**
 * A list cycle of a watch.
 *
 * @param startedAt when it started
 * @param duration how long it took
 * @param items how many objects were cached after it
 * @param trigger why it ran
 * @since 0.1.0
 */
public record ListCycle(Instant startedAt, Duration duration, int items, RelistReason trigger) {

}
