package dev.informer;

import java.util.Collection;
import java.util.Set;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * The application's informers by name, and typed access to their caches.
 *
 * @since 0.1.0
 */
public interface InformerRegistry {

	/**
	 * Return the names of all informers, in declaration order.
	 * @return the names
	 */
	Set<String> names();

	/**
	 * Return all informers, in declaration order.
	 * @return the informers
	 */
	Collection<? extends Informer<?>> informers();

	/**
	 * Return an informer.
	 * @param name the informer's name
	 * @return the informer
	 * @throws IllegalArgumentException if there is none of that name
	 */
	Informer<?> informer(String name);

	/**
	 * Return an informer's cache.
	 * @param <T> the resource type
	 * @param name the informer's name
	 * @param type the resource class it holds (or a supertype)
	 * @return the cache
	 * @throws IllegalArgumentException if there is no informer of that name, or it holds
	 * another class
	 */
	<T extends HasMetadata> ResourceCache<T> cache(String name, Class<T> type);

}
