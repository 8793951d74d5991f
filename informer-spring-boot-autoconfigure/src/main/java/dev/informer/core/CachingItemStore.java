package dev.informer.core;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

/**
 * The informer's cache: fabric8's store, with objects trimmed in place before they are
 * stored. fabric8 publishes the very instance it stores, so listeners see the trimmed object
 * too and nothing holds a second copy.
 *
 * @param <T> the resource type
 */
final class CachingItemStore<T extends HasMetadata> implements ItemStore<T> {

	private final BasicItemStore<T> delegate = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);

	private final List<Consumer<? super T>> transforms;

	CachingItemStore(boolean stripManagedFields, List<Consumer<? super T>> transforms) {
		List<Consumer<? super T>> all = new ArrayList<>();
		if (stripManagedFields) {
			all.add(CachingItemStore::stripManagedFields);
		}
		all.addAll(transforms);
		this.transforms = List.copyOf(all);
	}

	private static void stripManagedFields(HasMetadata resource) {
		ObjectMeta metadata = resource.getMetadata();
		if (metadata != null) {
			metadata.setManagedFields(null);
		}
	}

	@Override
	public String getKey(T resource) {
		return this.delegate.getKey(resource);
	}

	@Override
	public T put(String key, T resource) {
		for (Consumer<? super T> transform : this.transforms) {
			transform.accept(resource);
		}
		return this.delegate.put(key, resource);
	}

	@Override
	public T remove(String key) {
		return this.delegate.remove(key);
	}

	@Override
	public Stream<String> keySet() {
		return this.delegate.keySet();
	}

	@Override
	public Stream<T> values() {
		return this.delegate.values();
	}

	@Override
	public int size() {
		return this.delegate.size();
	}

	@Override
	public T get(String key) {
		return this.delegate.get(key);
	}

}
