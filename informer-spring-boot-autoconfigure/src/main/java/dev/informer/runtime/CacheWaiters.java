package dev.informer.runtime;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The callers of {@link dev.informer.ResourceCache#awaitResourceVersion} waiting for a
 * cache: each waits on a future that the cache's changes complete. A change (an object
 * stored or removed) or a watch's resourceVersion seen moving (a bookmark) runs every
 * waiter's check on the thread that reports it; nothing polls.
 *
 * @param <T> the resource type
 */
final class CacheWaiters<T> {

	private final Set<Waiter<T>> waiters = ConcurrentHashMap.newKeySet();

	/**
	 * Wait until {@code check} decides.
	 * @param check the outcome once decided, {@code null} before; called on the calling
	 * thread first, then on the threads that report changes
	 * @param timeout how long to wait
	 * @param what what is awaited, for the messages
	 * @return the object decided on, empty when it is not in the cache
	 * @throws TimeoutException if {@code check} has not decided within {@code timeout}
	 */
	Optional<T> await(Supplier<@Nullable Outcome<T>> check, Duration timeout, String what) throws TimeoutException {
		Waiter<T> waiter = new Waiter<>(check);
		// registered first, checked next: a change in between completes it either way
		this.waiters.add(waiter);
		try {
			waiter.check();
			return waiter.result.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			throw new TimeoutException("The cache did not reach " + what + " within " + timeout);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new CancellationException("Interrupted while waiting for " + what);
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException("Checking the cache for " + what + " failed", ex.getCause());
		}
		finally {
			this.waiters.remove(waiter);
		}
	}

	/**
	 * The cache changed, or a watch's resourceVersion moved: check every waiter.
	 */
	void changed() {
		for (Waiter<T> waiter : this.waiters) {
			waiter.check();
		}
	}

	/**
	 * Return whether someone waits.
	 * @return whether there are waiters
	 */
	boolean isEmpty() {
		return this.waiters.isEmpty();
	}

	/**
	 * What a wait ends with.
	 *
	 * @param <T> the resource type
	 * @param resource the cached object, {@code null} when the cache does not hold it
	 */
	record Outcome<T>(@Nullable T resource) {

		Optional<T> resourceIfPresent() {
			return Optional.ofNullable(this.resource);
		}

	}

	private static final class Waiter<T> {

		private final Supplier<@Nullable Outcome<T>> check;

		private final CompletableFuture<Optional<T>> result = new CompletableFuture<>();

		Waiter(Supplier<@Nullable Outcome<T>> check) {
			this.check = check;
		}

		void check() {
			if (this.result.isDone()) {
				return;
			}
			try {
				Outcome<T> outcome = this.check.get();
				if (outcome != null) {
					this.result.complete(outcome.resourceIfPresent());
				}
			}
			catch (RuntimeException ex) {
				// never into the thread that reported the change (fabric8's)
				this.result.completeExceptionally(ex);
			}
		}

	}

}
