package dev.informer.runtime;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

/**
 * The watches of one informer: fixed for declared namespaces, joining and leaving with a
 * {@code namespace-selector}. Read without locking, in the order the watches were added.
 *
 * @param <T> the resource type
 */
final class WatchSet<T extends HasMetadata> {

	private final List<ResourceWatch<T>> watches = new CopyOnWriteArrayList<>();

	void add(ResourceWatch<T> watch) {
		this.watches.add(watch);
	}

	boolean remove(ResourceWatch<T> watch) {
		return this.watches.remove(watch);
	}

	boolean contains(ResourceWatch<T> watch) {
		return this.watches.contains(watch);
	}

	@Nullable ResourceWatch<T> find(String namespace) {
		for (ResourceWatch<T> watch : this.watches) {
			if (namespace.equals(watch.getNamespace())) {
				return watch;
			}
		}
		return null;
	}

	/**
	 * Return the watches now.
	 * @return an unmodifiable snapshot
	 */
	List<ResourceWatch<T>> list() {
		return List.copyOf(this.watches);
	}

	Stream<ResourceWatch<T>> stream() {
		return this.watches.stream();
	}

	/**
	 * Remove every watch.
	 * @return the watches removed
	 */
	List<ResourceWatch<T>> clear() {
		List<ResourceWatch<T>> removed = list();
		this.watches.removeAll(removed);
		return removed;
	}

}
