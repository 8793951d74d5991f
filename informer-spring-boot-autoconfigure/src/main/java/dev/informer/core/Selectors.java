package dev.informer.core;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Parses Kubernetes label and field selectors as the API server does, so that a typo fails
 * at startup with a message instead of as a 400 on the first list.
 */
final class Selectors {

	private static final String NAME = "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?";

	private static final String KEY = "(" + "[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/" + ")?" + NAME;

	private static final String VALUE = "(" + NAME + ")?";

	private static final Pattern EXISTS = Pattern.compile("(!?)\\s*(" + KEY + ")");

	private static final Pattern EQUALITY = Pattern.compile("(" + KEY + ")\\s*(==|!=|=)\\s*(" + VALUE + ")");

	private static final Pattern SET = Pattern.compile("(" + KEY + ")\\s+(in|notin)\\s*\\(([^()]*)\\)");

	private static final Pattern FIELD = Pattern.compile("([A-Za-z0-9_.\\-\\[\\]/]+)\\s*(==|!=|=)\\s*([^,=!]*)");

	private Selectors() {
	}

	/**
	 * Check a label selector.
	 * @param selector the selector
	 * @return {@code null} when valid, otherwise the offending requirement
	 */
	static @Nullable String invalidLabelRequirement(String selector) {
		for (String requirement : splitRequirements(selector)) {
			String trimmed = requirement.trim();
			if (trimmed.isEmpty()) {
				return requirement;
			}
			Matcher set = SET.matcher(trimmed);
			if (set.matches()) {
				for (String value : set.group(set.groupCount()).split(",", -1)) {
					if (!value.trim().matches(VALUE)) {
						return requirement;
					}
				}
				continue;
			}
			if (!EQUALITY.matcher(trimmed).matches() && !EXISTS.matcher(trimmed).matches()) {
				return requirement;
			}
		}
		return null;
	}

	/**
	 * Parse a field selector into its requirements.
	 * @param selector the selector
	 * @return the requirements
	 * @throws IllegalArgumentException naming the offending requirement
	 */
	static List<FieldRequirement> parseFieldSelector(String selector) {
		List<FieldRequirement> requirements = new ArrayList<>();
		for (String requirement : selector.split(",", -1)) {
			Matcher matcher = FIELD.matcher(requirement.trim());
			if (!matcher.matches()) {
				throw new IllegalArgumentException(requirement);
			}
			requirements.add(new FieldRequirement(matcher.group(1), !"!=".equals(matcher.group(2)),
					matcher.group(3).trim()));
		}
		return requirements;
	}

	private static List<String> splitRequirements(String selector) {
		List<String> result = new ArrayList<>();
		int depth = 0;
		int start = 0;
		for (int i = 0; i < selector.length(); i++) {
			char c = selector.charAt(i);
			if (c == '(') {
				depth++;
			}
			else if (c == ')') {
				depth--;
			}
			else if (c == ',' && depth == 0) {
				result.add(selector.substring(start, i));
				start = i + 1;
			}
		}
		result.add(selector.substring(start));
		return result;
	}

	/**
	 * One requirement of a field selector.
	 *
	 * @param field the field path
	 * @param equal whether the field must equal the value ({@code false} for {@code !=})
	 * @param value the value
	 */
	record FieldRequirement(String field, boolean equal, String value) {

		@Override
		public String toString() {
			return this.field + (this.equal ? "=" : "!=") + this.value;
		}

	}

}
