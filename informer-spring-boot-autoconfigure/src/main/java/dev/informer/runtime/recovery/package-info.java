/**
 * When a watch is retried, given up or replaced: the retry policy applied to fabric8's
 * errors and the options and judgement that replace a fabric8 informer that stopped
 * working. Depends on the API and the read model only.
 */
@NullMarked
package dev.informer.runtime.recovery;

import org.jspecify.annotations.NullMarked;
