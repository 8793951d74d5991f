package dev.informer.runtime;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;

/**
 * Waiting for several watches at once.
 */
final class Futures {

	private Futures() {
	}

	/**
	 * Return a future that completes when every future completed, or fails as soon as one
	 * fails (where {@link CompletableFuture#allOf} waits for all of them first).
	 * @param futures the futures
	 * @return the future
	 */
	static CompletableFuture<Void> allOrFirstFailure(Collection<CompletableFuture<Void>> futures) {
		CompletableFuture<Void> all = new CompletableFuture<>();
		futures.forEach((future) -> future.whenComplete((ignored, ex) -> {
			if (ex != null) {
				all.completeExceptionally(ex);
			}
		}));
		CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).thenRun(() -> all.complete(null));
		return all;
	}

}
