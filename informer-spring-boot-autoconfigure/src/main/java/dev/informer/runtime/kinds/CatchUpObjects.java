package dev.informer.runtime.kinds;

import java.util.Collection;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

import dev.informer.watch.UndecodableObject;

/**
 * What a watch that catches up on deletes, or a list read for its version alone, does
 * with an object that does not decode: passes it, as the informer's watch does, so that
 * one such object does not end the catch-up; a delete of one is found with its last
 * decoded state when the caller's cache holds it. Used on one thread.
 */
final class CatchUpObjects implements UndecodableObjects {

	private final Function<String, ? extends @Nullable HasMetadata> cache;

	private @Nullable String deleted;

	CatchUpObjects(Function<String, ? extends @Nullable HasMetadata> cache) {
		this.cache = cache;
	}

	@Override
	public void skipped(UndecodableObject object) {
		this.deleted = null;
	}

	@Override
	public void deleted(String key) {
		this.deleted = key;
	}

	@Override
	public void listed(Collection<UndecodableObject> skipped) {
	}

	@Override
	public @Nullable HasMetadata cached(String key) {
		// a delete stands for the cached state; a version that does not decode does
		// not (the informer's own watch tells its listeners of that one)
		boolean delete = key.equals(this.deleted);
		this.deleted = null;
		return delete ? this.cache.apply(key) : null;
	}

	@Override
	public void stoppedDecoding(HasMetadata handedOn, HasMetadata lastDecoded) {
	}

}
