/**
 * Auto-configuration of informer health and of the readiness group's membership.
 */
@NullMarked
package dev.informer.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
