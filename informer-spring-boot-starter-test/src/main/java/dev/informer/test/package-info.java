/**
 * Testing informer listeners: the {@link dev.informer.test.InformerTest @InformerTest}
 * slice, the Kubernetes API servers it starts and
 * {@link dev.informer.test.InformerEvents}.
 */
@NullMarked
package dev.informer.test;

import org.jspecify.annotations.NullMarked;
