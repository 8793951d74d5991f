package dev.informer.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.informer.InvalidInformerDeclarationException;

/**
 * Thrown when a key under {@code informer.} binds to no property: Spring Boot would
 * ignore it, and the informer would run without what the user meant to set. Names the key
 * as written, where it was set, and the nearest known keys.
 *
 * @since 0.1.0
 */
public final class UnknownInformerPropertyException extends InvalidInformerDeclarationException {

	private final @Nullable String origin;

	private final List<String> nearest;

	/**
	 * Create a new exception.
	 * @param informerName the informer whose declaration holds the key, or {@code null}
	 * for a key outside {@code informer.resources}
	 * @param property the key relative to the declaration, or to {@code informer.}
	 * @param value its value
	 * @param origin where it was set, if known
	 * @param nearest the nearest known keys, relative as {@code property}
	 * @param known the known keys beside it
	 */
	UnknownInformerPropertyException(@Nullable String informerName, String property, @Nullable Object value,
			@Nullable String origin, List<String> nearest, List<String> known) {
		super(property, value, problem(informerName, origin), action(informerName, property, nearest, known), null,
				informerName);
		this.origin = origin;
		this.nearest = nearest;
	}

	private static String problem(@Nullable String informerName, @Nullable String origin) {
		String what = (informerName != null) ? "is not a property of an informer declaration"
				: "is not a property of the informer starter";
		return what + ((origin != null) ? " (set in " + origin + ")" : "") + ", so it would be ignored";
	}

	private static String action(@Nullable String informerName, String property, List<String> nearest,
			List<String> known) {
		String prefix = (informerName != null) ? "informer.resources." + informerName + "." : "informer.";
		String fix = nearest.isEmpty() ? "Remove " + prefix + property + ", or rename it."
				: "Did you mean '" + nearest.get(0) + "'? Rename it " + prefix + nearest.get(0) + ".";
		return fix + " The keys there are: " + String.join(", ", known) + " (docs/configuration.md describes each).";
	}

	/**
	 * Return where the key was set, such as a file and line.
	 * @return the origin, or {@code null} if unknown
	 */
	public @Nullable String getOrigin() {
		return this.origin;
	}

	/**
	 * Return the nearest known keys, nearest first, relative as {@link #getProperty()}.
	 * @return the nearest keys, empty when none is close
	 */
	public List<String> getNearest() {
		return this.nearest;
	}

}
