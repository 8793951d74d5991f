/**
 * Micrometer metrics of informers: {@link dev.informer.metrics.InformerMetrics}.
 */
@NullMarked
package dev.informer.metrics;

import org.jspecify.annotations.NullMarked;
