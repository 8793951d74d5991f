package dev.informer.autoconfigure;

import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Applies the deprecated aliases of renamed properties to their replacements, once bound.
 * A value set under the old name only is used as if set under the new one, with a warning
 * naming both; set under both names, it fails startup naming both unless the two values
 * are equal. Remembers which name each value came from, so that a message about a value
 * names the property the user wrote.
 */
final class DeprecatedAliases {

	private static final Log logger = LogFactory.getLog(InformerProperties.class);

	/** Replacements set through their deprecated alias, to that alias. */
	private final Map<String, String> applied = new HashMap<>();

	/**
	 * Apply one deprecated alias.
	 * @param <T> the type of the value
	 * @param deprecated the alias
	 * @param value the alias's value, {@code null} when it is not set
	 * @param replacement the property that replaces the alias
	 * @param replacementSet whether the replacement is set
	 * @param current the replacement's value
	 * @param setter sets the replacement
	 */
	<T> void apply(String deprecated, @Nullable T value, String replacement, boolean replacementSet,
			@Nullable T current, Consumer<T> setter) {
		if (value == null) {
			return;
		}
		if (replacementSet && !value.equals(current)) {
			throw new InvalidConfigurationPropertyValueException(deprecated, value,
					"is the deprecated name of " + replacement + ", which is set too, to '" + display(current)
							+ "'; remove " + deprecated + " and keep " + replacement + " with the value you mean");
		}
		logger.warn("Property '" + deprecated + "' is deprecated and will be removed in the next release: rename it '"
				+ replacement + "'");
		if (!replacementSet) {
			setter.accept(value);
			this.applied.put(replacement, deprecated);
		}
	}

	private static @Nullable Object display(@Nullable Object value) {
		if (value instanceof Duration duration) {
			return (duration.toMillis() % 1000 == 0) ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
		}
		if (value instanceof Enum<?> constant) {
			return constant.name().toLowerCase(Locale.ROOT);
		}
		return value;
	}

	/**
	 * Return the name of the property a value was set with.
	 * @param property the name of a property
	 * @return its deprecated alias if the value came from it, else the property
	 */
	String nameOf(String property) {
		return this.applied.getOrDefault(property, property);
	}

}
