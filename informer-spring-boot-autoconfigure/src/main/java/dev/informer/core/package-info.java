/**
 * Informer runtime: declarations, their resolution against the API server, the informers,
 * their caches, status and lifecycle. Usable without auto-configuration.
 */
@NullMarked
package dev.informer.core;

import org.jspecify.annotations.NullMarked;
