/**
 * The watches on Namespaces behind {@code namespace-selector}: one per distinct selector,
 * shared by the informers that declare it, telling each which namespaces join and leave.
 * Depends on the API, the read model, status and recovery.
 */
@NullMarked
package dev.informer.runtime.namespaces;

import org.jspecify.annotations.NullMarked;
