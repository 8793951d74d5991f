package dev.informer.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import org.jspecify.annotations.Nullable;

import dev.informer.ResourceCache;
import dev.informer.runtime.CacheWaiters.Outcome;
import dev.informer.watch.ResourceVersions;

/**
 * The cache of a {@link ResourceInformer}: the caches of all its namespaces, read as one.
 *
 * @param <T> the resource type
 */
final class CombinedCache<T extends HasMetadata> implements ResourceCache<T> {

	private final WatchSet<T> parts;

	private final Set<String> declaredIndexes;

	private final CacheWaiters<T> waiters = new CacheWaiters<>();

	CombinedCache(WatchSet<T> parts, Set<String> declaredIndexes) {
		this.parts = parts;
		this.declaredIndexes = declaredIndexes;
	}

	@Override
	public Optional<T> get(@Nullable String namespace, String name) {
		String key = (namespace != null) ? Cache.namespaceKeyFunc(namespace, name) : name;
		return stores().map((store) -> store.get(key)).filter((value) -> value != null).findFirst();
	}

	@Override
	public Optional<T> awaitResourceVersion(@Nullable String namespace, String name, String resourceVersion,
			Duration timeout) throws TimeoutException {
		if (resourceVersion == null || resourceVersion.isEmpty()) {
			throw new IllegalArgumentException("resourceVersion must not be empty");
		}
		if (timeout.isNegative()) {
			throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
		}
		String key = (namespace != null) ? Cache.namespaceKeyFunc(namespace, name) : name;
		String what = "resourceVersion " + resourceVersion + " of " + key;
		return this.waiters.await(() -> reached(namespace, key, resourceVersion), timeout, what);
	}

	/**
	 * Decide a wait: the watch that caches the object's namespace holds the object at the
	 * resourceVersion or later, or has itself reached it. fabric8 stores an event's
	 * object before it moves the watch's resourceVersion, so a watch that has reached it
	 * holds every change up to it.
	 */
	private @Nullable Outcome<T> reached(@Nullable String namespace, String key, String resourceVersion) {
		for (ResourceWatch<T> part : this.parts.list()) {
			String watched = part.getNamespace();
			if (watched != null && !watched.equals(namespace)) {
				continue;
			}
			CachingItemStore<T> store = part.source().store();
			T cached = (store != null) ? store.get(key) : null;
			if (cached != null && cached.getMetadata() != null
					&& ResourceVersions.isAtLeast(cached.getMetadata().getResourceVersion(), resourceVersion)) {
				return new Outcome<>(cached);
			}
			if (ResourceVersions.isAtLeast(part.source().lastResourceVersion(), resourceVersion)) {
				return new Outcome<>(cached);
			}
		}
		return null;
	}

	/**
	 * The cache changed, or a watch's resourceVersion moved: wake the waiters of
	 * {@link #awaitResourceVersion}.
	 */
	void changed() {
		this.waiters.changed();
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
		for (ResourceWatch<T> part : this.parts.list()) {
			String watched = part.getNamespace();
			if (watched == null) {
				result.addAll(listAllNamespacesPart(part, namespace));
			}
			else if (watched.equals(namespace)) {
				CachingItemStore<T> store = part.source().store();
				if (store != null) {
					store.values().forEach(result::add);
				}
			}
		}
		return Collections.unmodifiableList(result);
	}

	private List<T> listAllNamespacesPart(ResourceWatch<T> part, String namespace) {
		SharedIndexInformer<T> informer = part.source().informer();
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
	public List<T> byIndex(String index, String value) {
		List<T> result = new ArrayList<>();
		boolean known = false;
		for (ResourceWatch<T> part : this.parts.list()) {
			SharedIndexInformer<T> informer = part.source().informer();
			if (informer != null && informer.getIndexer().getIndexers().containsKey(index)) {
				known = true;
				result.addAll(informer.getIndexer().byIndex(index, value));
			}
		}
		if (!known && !this.declaredIndexes.contains(index)) {
			throw unknownIndex(index);
		}
		return Collections.unmodifiableList(result);
	}

	@Override
	public Set<String> indexKeys(String index) {
		Set<String> keys = new TreeSet<>();
		boolean known = false;
		for (ResourceWatch<T> part : this.parts.list()) {
			SharedIndexInformer<T> informer = part.source().informer();
			Function<T, List<String>> function = (informer != null) ? informer.getIndexer().getIndexers().get(index)
					: null;
			if (function != null) {
				known = true;
				informer.getIndexer().list().forEach((resource) -> keys.addAll(function.apply(resource)));
			}
		}
		if (!known && !this.declaredIndexes.contains(index)) {
			throw unknownIndex(index);
		}
		return Collections.unmodifiableSet(keys);
	}

	private IllegalArgumentException unknownIndex(String index) {
		return new IllegalArgumentException("No index '" + index + "'; declared: " + ((this.declaredIndexes.isEmpty())
				? "none (add it under informer.resources.<name>.indexes)" : String.join(", ", this.declaredIndexes)));
	}

	@Override
	public int size() {
		return stores().mapToInt(CachingItemStore::size).sum();
	}

	private Stream<CachingItemStore<T>> stores() {
		return this.parts.stream().map((part) -> part.source().store()).filter((store) -> store != null);
	}

}
