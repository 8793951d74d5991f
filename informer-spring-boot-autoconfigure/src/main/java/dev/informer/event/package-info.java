/**
 * Application events published by informers: typed resource changes and informer
 * lifecycle.
 */
@NullMarked
package dev.informer.event;

import org.jspecify.annotations.NullMarked;
