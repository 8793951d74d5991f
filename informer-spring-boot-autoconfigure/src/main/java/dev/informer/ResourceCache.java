package dev.informer;

import java.util.List;
import java.util.Optional;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

/**
 * Read access to an informer's cache. Objects are shared with the informer and with the
 * events: treat them as read-only.
 *
 * @param <T> the resource type
 */
public interface ResourceCache<T extends HasMetadata> {

	/**
	 * Return a cached object.
	 * @param namespace the namespace, {@code null} for a cluster-scoped kind
	 * @param name the name
	 * @return the object, if cached
	 */
	Optional<T> get(@Nullable String namespace, String name);

	/**
	 * Return all cached objects.
	 * @return the objects
	 */
	List<T> list();

	/**
	 * Return the cached objects of one namespace.
	 * @param namespace the namespace
	 * @return the objects
	 */
	List<T> list(String namespace);

	/**
	 * Return the number of cached objects.
	 * @return the size
	 */
	int size();

}
