package dev.informer.runtime;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

import dev.informer.InformerDefinition;
import dev.informer.InformerState;
import dev.informer.ResourceCache;
import dev.informer.watch.DeliveryObserver;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchError;
import dev.informer.watch.WatchRegistry;
import dev.informer.watch.WatchSetObserver;
import dev.informer.watch.WatchSnapshot;
import dev.informer.watch.WatchedInformer;

/**
 * A registry of one informer whose watches count the snapshots taken of them, for tests
 * of how often health, metrics and the endpoint take one. Drive the watches with
 * {@link TestWatches}, through {@link CountingWatch#watch()}.
 */
public final class CountedSnapshots implements WatchRegistry {

	private final CountingInformer<?> informer;

	/**
	 * Count the snapshots of an informer's watches.
	 * @param informer the informer
	 * @param namespaceWatch the watch on Namespaces of its {@code namespace-selector},
	 * {@code null} for the informer's own (none before it starts)
	 */
	public CountedSnapshots(WatchedInformer<?> informer, @Nullable Watch namespaceWatch) {
		this.informer = new CountingInformer<>(informer, namespaceWatch);
	}

	/**
	 * Return the counting watch of one of the informer's watches.
	 * @param index the index in {@link WatchedInformer#getWatches()}
	 * @return the watch
	 */
	public CountingWatch watch(int index) {
		return (CountingWatch) this.informer.getWatches().get(index);
	}

	/**
	 * Return the counting watch on Namespaces.
	 * @return the watch
	 */
	public CountingWatch namespaceWatch() {
		Watch watch = this.informer.getNamespaceWatch();
		if (watch == null) {
			throw new IllegalStateException("No watch on Namespaces");
		}
		return (CountingWatch) watch;
	}

	@Override
	public Set<String> names() {
		return Set.of(this.informer.getName());
	}

	@Override
	public Collection<? extends WatchedInformer<?>> informers() {
		return List.of(this.informer);
	}

	@Override
	public WatchedInformer<?> informer(String name) {
		if (!this.informer.getName().equals(name)) {
			throw new IllegalArgumentException("No informer named '" + name + "'");
		}
		return this.informer;
	}

	@Override
	@SuppressWarnings("unchecked")
	public <T extends HasMetadata> ResourceCache<T> cache(String name, Class<T> type) {
		return (ResourceCache<T>) informer(name).getCache();
	}

	/**
	 * A watch that counts its snapshots.
	 */
	public static final class CountingWatch implements Watch {

		private final Watch watch;

		private final AtomicInteger snapshots = new AtomicInteger();

		CountingWatch(Watch watch) {
			this.watch = watch;
		}

		/**
		 * Return the watch counted, to drive it.
		 * @return the watch
		 */
		public Watch watch() {
			return this.watch;
		}

		/**
		 * Return how many snapshots were taken.
		 * @return the snapshots taken
		 */
		public int snapshots() {
			return this.snapshots.get();
		}

		@Override
		public WatchSnapshot snapshot() {
			this.snapshots.incrementAndGet();
			return this.watch.snapshot();
		}

		@Override
		public @Nullable String getNamespace() {
			return this.watch.getNamespace();
		}

		@Override
		public InformerState getState() {
			return this.watch.getState();
		}

		@Override
		public boolean isSynced() {
			return this.watch.isSynced();
		}

		@Override
		public boolean isWatching() {
			return this.watch.isWatching();
		}

		@Override
		public @Nullable Instant getNotWatchingSince() {
			return this.watch.getNotWatchingSince();
		}

		@Override
		public @Nullable WatchError getLastError() {
			return this.watch.getLastError();
		}

		@Override
		public @Nullable Instant getLastActivityAt() {
			return this.watch.getLastActivityAt();
		}

	}

	private static final class CountingInformer<T extends HasMetadata> implements WatchedInformer<T> {

		private final WatchedInformer<T> informer;

		private final @Nullable Watch namespaceWatch;

		// the informer's watches are fixed: one counting watch each
		private final Map<Watch, CountingWatch> counting = new ConcurrentHashMap<>();

		CountingInformer(WatchedInformer<T> informer, @Nullable Watch namespaceWatch) {
			this.informer = informer;
			this.namespaceWatch = namespaceWatch;
		}

		@Override
		public List<Watch> getWatches() {
			return this.informer.getWatches().stream().<Watch>map(this::counting).toList();
		}

		@Override
		public @Nullable Watch getNamespaceWatch() {
			Watch watch = (this.namespaceWatch != null) ? this.namespaceWatch : this.informer.getNamespaceWatch();
			return (watch != null) ? counting(watch) : null;
		}

		private CountingWatch counting(Watch watch) {
			return this.counting.computeIfAbsent(watch, CountingWatch::new);
		}

		@Override
		public String getName() {
			return this.informer.getName();
		}

		@Override
		public InformerDefinition<T> getDefinition() {
			return this.informer.getDefinition();
		}

		@Override
		public ResourceCache<T> getCache() {
			return this.informer.getCache();
		}

		@Override
		public boolean isSynced() {
			return this.informer.isSynced();
		}

		@Override
		public boolean isWatching() {
			return this.informer.isWatching();
		}

		@Override
		public @Nullable Instant getStartedAt() {
			return this.informer.getStartedAt();
		}

		@Override
		public CompletableFuture<Void> relist() {
			return this.informer.relist();
		}

		@Override
		public void addDeliveryObserver(DeliveryObserver observer) {
			this.informer.addDeliveryObserver(observer);
		}

		@Override
		public void addWatchSetObserver(WatchSetObserver observer) {
			this.informer.addWatchSetObserver(observer);
		}

	}

}
