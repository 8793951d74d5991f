/**
 * Testcontainers service connections to Kubernetes API servers, for
 * {@link dev.informer.test.InformerTest @InformerTest}.
 */
@NullMarked
package dev.informer.test.testcontainers;

import org.jspecify.annotations.NullMarked;
