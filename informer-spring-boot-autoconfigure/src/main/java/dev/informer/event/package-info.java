/**
 * Application events published by informers: typed resource changes and informer
 * lifecycle. Depends only on {@code dev.informer}.
 */
@NullMarked
package dev.informer.event;

import org.jspecify.annotations.NullMarked;
