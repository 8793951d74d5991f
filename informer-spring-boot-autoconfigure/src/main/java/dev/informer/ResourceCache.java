package dev.informer;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;

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
	 * Wait until the cache has caught up with a write: return the cached object once it
	 * is at {@code resourceVersion} or newer, or empty once the cache no longer holds it
	 * at or after that version (it was deleted, or left the informer's selectors). Use
	 * the resourceVersion the API server returned for a create, update or patch:
	 * <pre class="code">
	 * ConfigMap written = client.configMaps().resource(configMap).update();
	 * Optional&lt;ConfigMap&gt; cached = cache.awaitResourceVersion(namespace, name,
	 *         written.getMetadata().getResourceVersion(), Duration.ofSeconds(5));
	 * </pre> For a delete, pass the resourceVersion of the object the delete returned
	 * (its last state) or any later one: the wait ends, empty, once the watch has passed
	 * it.
	 * <p>
	 * "At or newer" compares resourceVersions as Kubernetes does (KEP-5504): as decimal
	 * integers when both are; otherwise only the object at exactly that resourceVersion
	 * ends the wait, and a delete cannot be told apart from a slow watch (the wait times
	 * out). The cache has reached a resourceVersion once its watch has seen an event or a
	 * bookmark at or after it; an object the cache then holds at an older resourceVersion
	 * is returned as it is (the write at {@code resourceVersion} was to another object).
	 * Waiters are woken by the cache's changes and by its watch's progress (bookmarks are
	 * seen within the watch monitor's sampling period); nothing polls the API server.
	 * @param namespace the namespace, {@code null} for a cluster-scoped kind
	 * @param name the name
	 * @param resourceVersion the resourceVersion to wait for
	 * @param timeout how long to wait at most
	 * @return the cached object at {@code resourceVersion} or newer, or empty if the
	 * cache, once there, does not hold it
	 * @throws TimeoutException if the cache has not reached {@code resourceVersion}
	 * within {@code timeout} (its watch is behind, or the informer does not watch that
	 * namespace)
	 * @throws java.util.concurrent.CancellationException if the calling thread is
	 * interrupted while waiting (its interrupt flag is set again)
	 * @since 0.1.0
	 */
	Optional<T> awaitResourceVersion(@Nullable String namespace, String name, String resourceVersion, Duration timeout)
			throws TimeoutException;

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
