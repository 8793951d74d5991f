package dev.informer.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.jspecify.annotations.Nullable;

import dev.informer.event.InformerSyncedEvent;

/**
 * One declared informer: one fabric8 informer per declared namespace (or one for all), a
 * cache over all of them, and the status of each.
 *
 * @param <T> the resource type
 */
public final class ResourceInformer<T extends HasMetadata> {

	private final InformerDefinition<T> definition;

	private final InformerEventPublisher publisher;

	private final RetryPolicy retryPolicy;

	private final Clock clock;

	private final List<NamespaceInformer<T>> parts;

	private final ResourceCache<T> cache = new CombinedCache();

	private final AtomicBoolean syncPublished = new AtomicBoolean();

	private volatile @Nullable Instant startedAt;

	/**
	 * Create an informer; nothing runs until {@link #start}.
	 * @param definition what to watch
	 * @param publisher where to deliver events
	 * @param retryPolicy what to do on errors
	 * @param clock the clock for status times
	 */
	public ResourceInformer(InformerDefinition<T> definition, InformerEventPublisher publisher,
			RetryPolicy retryPolicy, Clock clock) {
		this.definition = definition;
		this.publisher = publisher;
		this.retryPolicy = retryPolicy;
		this.clock = clock;
		List<String> namespaces = definition.getDeclaration().getNamespaces();
		List<NamespaceInformer<T>> created = new ArrayList<>();
		if (namespaces.isEmpty()) {
			created.add(new NamespaceInformer<>(this, null, clock));
		}
		else {
			namespaces.forEach((namespace) -> created.add(new NamespaceInformer<>(this, namespace, clock)));
		}
		this.parts = Collections.unmodifiableList(created);
	}

	/**
	 * Return what this informer watches.
	 * @return the definition
	 */
	public InformerDefinition<T> getDefinition() {
		return this.definition;
	}

	/**
	 * Return the informer's name.
	 * @return the name
	 */
	public String getName() {
		return this.definition.getName();
	}

	/**
	 * Return the cache.
	 * @return the cache
	 */
	public ResourceCache<T> getCache() {
		return this.cache;
	}

	/**
	 * Return the status of each watch, in declaration order of the namespaces.
	 * @return the statuses
	 */
	public List<WatchStatus> getStatuses() {
		return this.parts.stream().map(NamespaceInformer::getStatus).toList();
	}

	/**
	 * Return whether every namespace has delivered its initial list.
	 * @return whether synced
	 */
	public boolean isSynced() {
		return this.parts.stream().allMatch((part) -> part.getStatus().isSynced());
	}

	/**
	 * Return whether every fabric8 informer currently has an open watch.
	 * @return whether watching
	 */
	public boolean isWatching() {
		return this.parts.stream().allMatch((part) -> part.informer() != null && part.informer().isWatching());
	}

	/**
	 * Return whether the given namespace's watch is open.
	 * @param status the status of one of this informer's watches
	 * @return whether watching
	 */
	public boolean isWatching(WatchStatus status) {
		return this.parts.stream()
			.filter((part) -> part.getStatus() == status)
			.anyMatch((part) -> part.informer() != null && part.informer().isWatching());
	}

	/**
	 * Return the last resourceVersion a watch has seen (from an event, a bookmark or a list).
	 * @param status the status of one of this informer's watches
	 * @return the resource version or {@code null}
	 */
	public @Nullable String getLastResourceVersion(WatchStatus status) {
		return this.parts.stream()
			.filter((part) -> part.getStatus() == status && part.informer() != null)
			.map((part) -> part.informer().lastSyncResourceVersion())
			.findFirst()
			.orElse(null);
	}

	InformerEventPublisher getPublisher() {
		return this.publisher;
	}

	RetryPolicy getRetryPolicy() {
		return this.retryPolicy;
	}

	/**
	 * Start every fabric8 informer.
	 * @param client the client
	 * @param customizers the customizers to apply before each start
	 * @return a future that completes when every namespace has synced, or fails when one
	 * gave up
	 */
	public CompletableFuture<Void> start(KubernetesClient client, List<InformerCustomizer> customizers) {
		this.startedAt = this.clock.instant();
		CompletableFuture<Void> result = new CompletableFuture<>();
		List<CompletableFuture<Void>> synced = new ArrayList<>();
		for (NamespaceInformer<T> part : this.parts) {
			CompletableFuture<Void> partSynced = part.start(client, customizers);
			partSynced.whenComplete((ignored, ex) -> {
				if (ex != null) {
					result.completeExceptionally(ex);
				}
			});
			synced.add(partSynced);
		}
		CompletableFuture.allOf(synced.toArray(CompletableFuture[]::new)).thenRun(() -> result.complete(null));
		return result;
	}

	/**
	 * Stop every fabric8 informer. No event is published after this returns.
	 */
	public void stop() {
		this.parts.forEach(NamespaceInformer::stop);
	}

	/**
	 * Return the namespaces that failed, with their errors.
	 * @return the failed watches
	 */
	public List<WatchStatus> getUnsynced() {
		return this.parts.stream().map(NamespaceInformer::getStatus).filter((status) -> !status.isSynced()).toList();
	}

	void namespaceSynced() {
		if (isSynced() && this.syncPublished.compareAndSet(false, true)) {
			Instant started = this.startedAt;
			Duration timeToSync = (started != null) ? Duration.between(started, this.clock.instant()) : Duration.ZERO;
			this.publisher.publish(new InformerSyncedEvent(getName(), this.cache.size(), timeToSync));
		}
	}

	@Override
	public String toString() {
		return "ResourceInformer[" + this.definition + "]";
	}

	private Stream<CachingItemStore<T>> stores() {
		return this.parts.stream().map(NamespaceInformer::store).filter((store) -> store != null);
	}

	/**
	 * The cache over all namespaces.
	 */
	private final class CombinedCache implements ResourceCache<T> {

		@Override
		public Optional<T> get(@Nullable String namespace, String name) {
			String key = (namespace != null) ? Cache.namespaceKeyFunc(namespace, name) : name;
			return stores().map((store) -> store.get(key)).filter((value) -> value != null).findFirst();
		}

		@Override
		public List<T> list() {
			return stores().flatMap(CachingItemStore::values).toList();
		}

		@Override
		public List<T> list(String namespace) {
			return stores().flatMap(CachingItemStore::values)
				.filter((value) -> namespace.equals(value.getMetadata().getNamespace()))
				.toList();
		}

		@Override
		public int size() {
			return stores().mapToInt(CachingItemStore::size).sum();
		}

	}

}
