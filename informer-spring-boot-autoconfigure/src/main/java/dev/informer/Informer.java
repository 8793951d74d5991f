package dev.informer;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

/**
 * One declared informer, as an application uses it: what it watches, its cache, and a
 * relist. Started and stopped by the application context, never by its users.
 *
 * @param <T> the resource type
 * @see InformerRegistry
 * @since 0.1.0
 */
public interface Informer<T extends HasMetadata> {

	/**
	 * Return the informer's name, the key under {@code informer.resources}.
	 * @return the name
	 */
	String getName();

	/**
	 * Return what this informer watches.
	 * @return the definition
	 */
	InformerDefinition<T> getDefinition();

	/**
	 * Return the cache over all watched namespaces.
	 * @return the cache
	 */
	ResourceCache<T> getCache();

	/**
	 * Return whether every namespace has delivered its initial list.
	 * @return whether synced
	 */
	boolean isSynced();

	/**
	 * Return whether every namespace's watch is open now.
	 * @return whether watching
	 */
	boolean isWatching();

	/**
	 * Return when the informer was last started.
	 * @return the start time, or {@code null} if not started
	 */
	@Nullable Instant getStartedAt();

	/**
	 * Rebuild the cache from a fresh list, delivering only real differences as events:
	 * unchanged objects (same resourceVersion) cause none, changed ones a
	 * {@code ResourceUpdatedEvent}, vanished ones a {@code ResourceDeletedEvent} with
	 * final state unknown, new ones a {@code ResourceAddedEvent}. Returns at once,
	 * without waiting for listeners.
	 * @return a future that completes when every namespace's list has been delivered
	 * @throws IllegalStateException if the informer is not running
	 */
	CompletableFuture<Void> relist();

}
