/**
 * Spring AOT support: the runtime hints a native image needs for the starter, its events,
 * its properties and the fabric8 classes it reflects on ({@link InformerRuntimeHints}),
 * and for the model classes of the kinds an application declares
 * ({@link DeclaredKindsAotProcessor}). Registered in
 * {@code META-INF/spring/aot.factories}; nothing else in the starter depends on this
 * package.
 */
@NullMarked
package dev.informer.autoconfigure.aot;

import org.jspecify.annotations.NullMarked;
