package dev.informer.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import org.jspecify.annotations.Nullable;

import dev.informer.ResourceCache;

/**
 * The cache of a {@link ResourceInformer}: the caches of all its namespaces, read as one.
 *
 * @param <T> the resource type
 */
final class CombinedCache<T extends HasMetadata> implements ResourceCache<T> {

	private final List<NamespaceInformer<T>> parts;

	CombinedCache(List<NamespaceInformer<T>> parts) {
		this.parts = parts;
	}

	@Override
	public Optional<T> get(@Nullable String namespace, String name) {
		String key = (namespace != null) ? Cache.namespaceKeyFunc(namespace, name) : name;
		return stores().map((store) -> store.get(key)).filter((value) -> value != null).findFirst();
	}

	@Override
	public List<T> list() {
		return stores().flatMap(CachingItemStore::values).toList();
	}

	/**
	 * Read only the objects of the namespace: those of the watch of that namespace, or
	 * those fabric8's namespace index holds for it in a watch of all namespaces.
	 */
	@Override
	public List<T> list(String namespace) {
		List<T> result = new ArrayList<>();
		for (NamespaceInformer<T> part : this.parts) {
			String watched = part.getNamespace();
			if (watched == null) {
				result.addAll(listAllNamespacesPart(part, namespace));
			}
			else if (watched.equals(namespace)) {
				CachingItemStore<T> store = part.store();
				if (store != null) {
					store.values().forEach(result::add);
				}
			}
		}
		return Collections.unmodifiableList(result);
	}

	private List<T> listAllNamespacesPart(NamespaceInformer<T> part, String namespace) {
		SharedIndexInformer<T> informer = part.informer();
		if (informer == null) {
			return List.of();
		}
		Indexer<T> indexer = informer.getIndexer();
		try {
			return indexer.byIndex(Cache.NAMESPACE_INDEX, namespace);
		}
		catch (IllegalArgumentException ex) {
			// a customizer removed fabric8's default index (asking for it takes no lock,
			// unlike listing the indexes)
			return indexer.list()
				.stream()
				.filter((value) -> namespace.equals(value.getMetadata().getNamespace()))
				.toList();
		}
	}

	@Override
	public int size() {
		return stores().mapToInt(CachingItemStore::size).sum();
	}

	private Stream<CachingItemStore<T>> stores() {
		return this.parts.stream().map(NamespaceInformer::store).filter((store) -> store != null);
	}

}
