package dev.informer.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import org.jspecify.annotations.Nullable;

/**
 * The informer's cache: fabric8's store, with objects trimmed in place before they are
 * stored. fabric8 publishes the very instance it stores, so listeners see the trimmed
 * object too and nothing holds a second copy.
 * <p>
 * Each change that makes fabric8 queue a notification (a new key, a new resourceVersion,
 * a removal: the same tests fabric8 applies) is reported to a {@link PendingChanges}.
 * Objects given as initial state are stored without notification and so are not reported.
 *
 * @param <T> the resource type
 */
final class CachingItemStore<T extends HasMetadata> implements ItemStore<T> {

	private final BasicItemStore<T> delegate = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);

	private final List<Consumer<? super T>> transforms;

	private final PendingChanges<T> tracker;

	private final Set<T> seeds = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

	private final BiConsumer<String, Throwable> transformFailures;

	private final Runnable changed;

	CachingItemStore(boolean stripManagedFields, List<Consumer<? super T>> transforms, PendingChanges<T> tracker) {
		this(stripManagedFields, transforms, tracker, (key, ex) -> {
		}, () -> {
		});
	}

	/**
	 * Create a store.
	 * @param stripManagedFields whether to drop managed fields before storing
	 * @param transforms the customizers' transforms, in order
	 * @param tracker where to report changes
	 * @param transformFailures told of each transform that throws, with the object's key:
	 * the object is stored as it was before that transform, and the later transforms
	 * skipped
	 * @param changed told after each object stored or removed
	 */
	CachingItemStore(boolean stripManagedFields, List<Consumer<? super T>> transforms, PendingChanges<T> tracker,
			BiConsumer<String, Throwable> transformFailures, Runnable changed) {
		this.transformFailures = transformFailures;
		this.changed = changed;
		List<Consumer<? super T>> all = new ArrayList<>();
		if (stripManagedFields) {
			all.add(CachingItemStore::stripManagedFields);
		}
		all.addAll(transforms);
		this.transforms = List.copyOf(all);
		this.tracker = tracker;
	}

	private static void stripManagedFields(HasMetadata resource) {
		ObjectMeta metadata = resource.getMetadata();
		if (metadata != null) {
			metadata.setManagedFields(null);
		}
	}

	/**
	 * Expect these objects to be stored as initial state, without notification.
	 * @param initialState the objects
	 */
	void expectInitialState(Collection<T> initialState) {
		this.seeds.addAll(initialState);
	}

	/**
	 * Return the cached objects by key.
	 * @return a copy of the content
	 */
	Map<String, T> snapshot() {
		Map<String, T> result = new LinkedHashMap<>();
		this.delegate.keySet().forEach((key) -> {
			T value = this.delegate.get(key);
			if (value != null) {
				result.put(key, value);
			}
		});
		return result;
	}

	@Override
	public String getKey(T resource) {
		return this.delegate.getKey(resource);
	}

	@Override
	public T put(String key, T resource) {
		// fabric8 writes from one thread: what get() returns is what put() replaces
		T previous = this.delegate.get(key);
		// seeds come from a cache like this one: already transformed
		if (!this.seeds.remove(resource)) {
			transform(key, resource);
			if (previous == null || !Objects.equals(resourceVersion(previous), resourceVersion(resource))) {
				reportBeforeStoring(key, previous);
			}
		}
		this.delegate.put(key, resource);
		this.changed.run();
		return previous;
	}

	private void transform(String key, T resource) {
		for (Consumer<? super T> transform : this.transforms) {
			try {
				transform.accept(resource);
			}
			catch (RuntimeException ex) {
				// throwing here would lose the change (on a watch event) or fail the list
				// for ever: keep the object and say so
				this.transformFailures.accept(key, ex);
				return;
			}
		}
	}

	/**
	 * Report a change to the tracker before the cache shows it. A relist reads the cache
	 * and then the tracker while fabric8 may be storing a change: reported after storing,
	 * a change caught in between would count as seen by listeners, and the relist would
	 * never deliver it (an added object's later delete would then reach listeners that
	 * never saw it added).
	 */
	private void reportBeforeStoring(String key, @Nullable T before) {
		this.tracker.queued(key, before);
	}

	private static @Nullable String resourceVersion(HasMetadata resource) {
		return (resource.getMetadata() != null) ? resource.getMetadata().getResourceVersion() : null;
	}

	@Override
	public T remove(String key) {
		T current = this.delegate.get(key);
		if (current != null) {
			reportBeforeStoring(key, current);
		}
		T removed = this.delegate.remove(key);
		this.changed.run();
		return removed;
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
