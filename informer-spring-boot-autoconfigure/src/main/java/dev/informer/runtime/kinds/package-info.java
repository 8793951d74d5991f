/**
 * From a declaration to what fabric8 watches: resolving the kind against API discovery
 * and the model classes, and the fabric8 operation a watch lists and watches with.
 * Depends on the API, the read model and the on-change path checks.
 */
@NullMarked
package dev.informer.runtime.kinds;

import org.jspecify.annotations.NullMarked;
