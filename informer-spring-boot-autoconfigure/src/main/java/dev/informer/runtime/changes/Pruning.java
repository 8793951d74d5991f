package dev.informer.runtime.changes;

import java.util.List;
import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.HasMetadata;

import dev.informer.ResourcePath;

/**
 * The {@code prune} of a declaration as a transform: removes each path from an object in
 * place, before it is cached and delivered.
 *
 * @param <T> the resource type
 * @since 0.1.0
 */
public final class Pruning<T extends HasMetadata> implements Consumer<T> {

	private final List<ResourcePath> paths;

	/**
	 * Create a transform.
	 * @param paths the paths to remove
	 */
	public Pruning(List<ResourcePath> paths) {
		this.paths = List.copyOf(paths);
	}

	@Override
	public void accept(T resource) {
		for (ResourcePath path : this.paths) {
			PathReader.remove(resource, path);
		}
	}

}
