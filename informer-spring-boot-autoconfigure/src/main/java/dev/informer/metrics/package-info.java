/**
 * Micrometer adapter: {@link dev.informer.metrics.InformerMetrics} binds meters that read
 * the {@code dev.informer.watch} read model of every watch.
 */
@NullMarked
package dev.informer.metrics;

import org.jspecify.annotations.NullMarked;
