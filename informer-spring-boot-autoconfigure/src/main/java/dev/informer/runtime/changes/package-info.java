/**
 * What a declaration says matters of each object: the {@code on-change} filter between
 * fabric8's callbacks and the listeners, the {@code prune} transform before the cache,
 * the {@code indexes} of the cache, and their checks against the kind's model class.
 * Reads {@link dev.informer.ResourcePath paths} of the API; knows nothing of the
 * informers that use it.
 */
@NullMarked
package dev.informer.runtime.changes;

import org.jspecify.annotations.NullMarked;
