/**
 * Benchmarks of the informer starter against raw fabric8 and a decode floor; not
 * published.
 */
@NullMarked
package dev.informer.benchmarks;

import org.jspecify.annotations.NullMarked;
