package dev.informer.runtime.changes;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.informer.ResourcePath;
import dev.informer.ResourcePath.Segment;

/**
 * Reads and removes what a {@link ResourcePath} selects in an object: a typed model, a
 * {@code GenericKubernetesResource} (its fields beside metadata are maps) or a
 * {@code PartialObjectMetadata}. A path through an absent field selects nothing.
 *
 * @since 0.1.0
 */
public final class PathReader {

	private PathReader() {
	}

	/**
	 * Return the values a path selects, in order: one at most, more through {@code [*]}.
	 * @param root the object
	 * @param path the path
	 * @return the values, none if a field on the way is absent
	 */
	public static List<Object> read(Object root, ResourcePath path) {
		List<Object> current = List.of(root);
		for (Segment segment : path.getSegments()) {
			current = step(current, segment);
		}
		return current;
	}

	/**
	 * Remove what a path selects: a field is set to {@code null}, a map entry removed.
	 * @param root the object, changed in place
	 * @param path the path
	 */
	public static void remove(Object root, ResourcePath path) {
		List<Segment> segments = path.getSegments();
		List<Object> parents = List.of(root);
		for (Segment segment : segments.subList(0, segments.size() - 1)) {
			parents = step(parents, segment);
		}
		String last = segments.get(segments.size() - 1).name();
		for (Object parent : parents) {
			if (parent instanceof Map<?, ?> map) {
				map.remove(last);
			}
			else if (ModelProperties.isModel(parent.getClass())) {
				ModelProperties.of(parent.getClass()).remove(parent, last);
			}
		}
	}

	private static List<Object> step(List<Object> values, Segment segment) {
		List<Object> next = new ArrayList<>(values.size());
		for (Object value : values) {
			switch (segment.type()) {
				case EACH -> {
					if (value instanceof Collection<?> collection) {
						collection.stream().filter((element) -> element != null).forEach(next::add);
					}
				}
				case FIELD, KEY -> addIfPresent(next, child(value, segment.name()));
			}
		}
		return next;
	}

	private static @Nullable Object child(Object value, String name) {
		if (value instanceof Map<?, ?> map) {
			return map.get(name);
		}
		if (ModelProperties.isModel(value.getClass())) {
			return ModelProperties.of(value.getClass()).get(value, name);
		}
		return null;
	}

	private static void addIfPresent(List<Object> values, @Nullable Object value) {
		if (value != null) {
			values.add(value);
		}
	}

}
