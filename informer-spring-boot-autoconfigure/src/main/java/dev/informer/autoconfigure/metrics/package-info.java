/**
 * Auto-configuration of informer metrics.
 */
@NullMarked
package dev.informer.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
