/**
 * Auto-configuration of informers declared under {@code informer.resources}.
 */
@NullMarked
package dev.informer.autoconfigure;

import org.jspecify.annotations.NullMarked;
