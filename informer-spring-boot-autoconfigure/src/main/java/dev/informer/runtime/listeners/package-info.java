/**
 * How events reach the application's listeners: the per-watch queue that runs them in
 * order on a bounded set of threads (folding changes when its backlog is bounded), the
 * publisher that isolates each listener, and the listener adapter. Depends on the API,
 * events and the read model only.
 */
@NullMarked
package dev.informer.runtime.listeners;

import org.jspecify.annotations.NullMarked;
