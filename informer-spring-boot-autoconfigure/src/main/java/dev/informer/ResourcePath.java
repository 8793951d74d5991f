package dev.informer;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A path into a Kubernetes object, as {@code on-change}, {@code prune} and
 * {@code indexes} declare it: field names separated by dots, a map key in brackets and
 * quotes, {@code [*]} for every element of a list. For example {@code spec.replicas},
 * {@code metadata.labels['app']},
 * {@code metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']},
 * {@code metadata.ownerReferences[*].uid}. Field names are the JSON names the API server
 * uses.
 * <p>
 * Parsing checks only the syntax; whether the kind has the field is checked when the
 * declaration is resolved against its model class.
 *
 * @since 0.1.0
 */
public final class ResourcePath {

	private final String text;

	private final List<Segment> segments;

	private ResourcePath(String text, List<Segment> segments) {
		this.text = text;
		this.segments = List.copyOf(segments);
	}

	/**
	 * Parse a path.
	 * @param text the path, for example {@code metadata.labels['app']}
	 * @return the path
	 * @throws IllegalArgumentException if the text is not a path, with a message saying
	 * where and what was expected
	 */
	public static ResourcePath parse(String text) {
		List<Segment> segments = new ArrayList<>();
		int i = 0;
		int length = text.length();
		i = field(text, i, segments);
		while (i < length) {
			char c = text.charAt(i);
			if (c == '.') {
				i = field(text, i + 1, segments);
			}
			else if (c == '[') {
				i = bracket(text, i, segments);
			}
			else {
				throw new IllegalArgumentException(
						"character " + (i + 1) + " ('" + c + "'): expected '.' or '[' after a field");
			}
		}
		return new ResourcePath(text, segments);
	}

	private static int field(String text, int start, List<Segment> segments) {
		int i = start;
		while (i < text.length() && isFieldChar(text.charAt(i), i == start)) {
			i++;
		}
		if (i == start) {
			throw new IllegalArgumentException("character " + (start + 1) + ": expected a field name (letters and "
					+ "digits, starting with a letter)"
					+ ((start < text.length()) ? ", found '" + text.charAt(start) + "'" : ", found the end"));
		}
		segments.add(new Segment(SegmentType.FIELD, text.substring(start, i)));
		return i;
	}

	private static boolean isFieldChar(char c, boolean first) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
	}

	private static int bracket(String text, int open, List<Segment> segments) {
		if (text.startsWith("[*]", open)) {
			segments.add(new Segment(SegmentType.EACH, "*"));
			return open + 3;
		}
		int i = open + 1;
		char quote = (i < text.length()) ? text.charAt(i) : 0;
		if (quote != '\'' && quote != '"') {
			throw new IllegalArgumentException(
					"character " + (i + 1) + ": expected a quoted key such as ['app'] or " + "[*] after '['");
		}
		int close = text.indexOf(quote, i + 1);
		if (close < 0) {
			throw new IllegalArgumentException("character " + (i + 1) + ": the key's quote is never closed");
		}
		if (close == i + 1) {
			throw new IllegalArgumentException("character " + (i + 1) + ": the key is empty");
		}
		if (close + 1 >= text.length() || text.charAt(close + 1) != ']') {
			throw new IllegalArgumentException("character " + (close + 2) + ": expected ']' after the key");
		}
		segments.add(new Segment(SegmentType.KEY, text.substring(i + 1, close)));
		return close + 2;
	}

	/**
	 * Return the first field, for example {@code metadata} or {@code spec}.
	 * @return the root field
	 */
	public String getRoot() {
		return this.segments.get(0).name();
	}

	/**
	 * Return whether the path is inside {@code metadata}, the part a metadata-only
	 * informer has.
	 * @return whether the root is {@code metadata}
	 */
	public boolean isMetadata() {
		return "metadata".equals(getRoot());
	}

	/**
	 * Return the segments, the root first.
	 * @return the segments
	 */
	public List<Segment> getSegments() {
		return this.segments;
	}

	/**
	 * Return whether this path is the other or inside it, for example
	 * {@code metadata.labels['app']} inside {@code metadata.labels}.
	 * @param other the other path
	 * @return whether this path starts with all segments of the other
	 */
	public boolean startsWith(ResourcePath other) {
		return other.segments.size() <= this.segments.size()
				&& this.segments.subList(0, other.segments.size()).equals(other.segments);
	}

	@Override
	public boolean equals(Object obj) {
		return obj instanceof ResourcePath other && this.segments.equals(other.segments);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.segments);
	}

	/**
	 * Return the path as declared.
	 * @return the text
	 */
	@Override
	public String toString() {
		return this.text;
	}

	/**
	 * What a segment selects.
	 *
	 * @since 0.1.0
	 */
	public enum SegmentType {

		/** A field of an object, or an entry of a map, by name: {@code .replicas}. */
		FIELD,

		/** An entry of a map by key: {@code ['app']}. */
		KEY,

		/** Every element of a list: {@code [*]}. */
		EACH

	}

	/**
	 * One step of a path.
	 *
	 * @param type what the step selects
	 * @param name the field name or key; {@code *} for {@link SegmentType#EACH}
	 * @since 0.1.0
	 */
	public record Segment(SegmentType type, String name) {

	}

}
