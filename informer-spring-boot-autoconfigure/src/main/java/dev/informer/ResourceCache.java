package dev.informer;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

/**
 * Read access to an informer's cache. Objects are shared with the informer and with the
 * events: treat them as read-only.
 *
 * @param <T> the resource type
 * @since 0.1.0
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
	 * Return the cached objects an index holds under a value, across all watched
	 * namespaces: for {@code indexes: {by-node: spec.nodeName}},
	 * {@code byIndex("by-node", "node-1")} returns the objects whose
	 * {@code spec.nodeName} is {@code node-1}. An object is indexed under each value its
	 * path selects ({@code [*]} may select several), as a string.
	 * @param index the index's name under {@code informer.resources.<name>.indexes}, or a
	 * name a customizer added with {@code SharedIndexInformer.addIndexers}
	 * @param value the indexed value
	 * @return the objects, empty if none
	 * @throws IllegalArgumentException if the informer has no index of that name
	 */
	List<T> byIndex(String index, String value);

	/**
	 * Return the values an index holds now, across all watched namespaces: for
	 * {@code by-node}, the names of the nodes some cached object is on. Computed from the
	 * cached objects on each call.
	 * @param index the index's name under {@code informer.resources.<name>.indexes}
	 * @return the values, sorted
	 * @throws IllegalArgumentException if no index of that name is declared
	 */
	Set<String> indexKeys(String index);

	/**
	 * Return the number of cached objects.
	 * @return the size
	 */
	int size();

}
