package dev.informer.runtime.changes;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;

import dev.informer.ResourcePath;

/**
 * The {@code indexes} of a declaration as fabric8 index functions: each object is indexed
 * under the string form of every value its path selects (none if absent).
 *
 * @since 0.1.0
 */
public final class PathIndexes {

	private PathIndexes() {
	}

	/**
	 * Create the index functions.
	 * @param <T> the resource type
	 * @param indexes the path of each index by name
	 * @return the functions by index name, for
	 * {@link io.fabric8.kubernetes.client.informers.SharedIndexInformer#addIndexers}
	 */
	public static <T extends HasMetadata> Map<String, Function<T, List<String>>> functions(
			Map<String, ResourcePath> indexes) {
		Map<String, Function<T, List<String>>> functions = new LinkedHashMap<>();
		indexes.forEach((name, path) -> functions.put(name, (resource) -> values(resource, path)));
		return functions;
	}

	/**
	 * Return the index values of an object.
	 * @param resource the object
	 * @param path the index's path
	 * @return the distinct values, as strings
	 */
	public static List<String> values(HasMetadata resource, ResourcePath path) {
		return PathReader.read(resource, path).stream().map(String::valueOf).distinct().toList();
	}

}
