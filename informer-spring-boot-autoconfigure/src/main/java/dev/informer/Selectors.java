package dev.informer;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * Parses Kubernetes label and field selectors as the API server does, so that a typo
 * fails at startup with a message instead of as a 400 on the first list.
 */
final class Selectors {

	private static final String NAME = "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?";

	private static final String KEY = "(" + "[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/" + ")?" + NAME;

	private static final String VALUE = "(" + NAME + ")?";

	private static final Pattern EXISTS = Pattern.compile("(!?)\\s*(" + KEY + ")");

	private static final Pattern EQUALITY = Pattern.compile("(" + KEY + ")\\s*(==|!=|=)\\s*(" + VALUE + ")");

	private static final Pattern SET = Pattern.compile("(" + KEY + ")\\s+(in|notin)\\s*\\(([^()]*)\\)");

	/** The server wants a base-10 int64 that is also a label value: digits only. */
	private static final Pattern ORDER = Pattern.compile("(" + KEY + ")\\s*([<>])\\s*([0-9]+)");

	private static final Pattern FIELD = Pattern.compile("[A-Za-z0-9_.\\-\\[\\]/]+");

	private static final String[] FIELD_OPERATORS = { "!=", "==", "=" };

	private Selectors() {
	}

	/**
	 * Check a label selector.
	 * @param selector the selector
	 * @return {@code null} when valid, otherwise what is wrong, naming the offending
	 * requirement
	 */
	static @Nullable String labelSelectorProblem(String selector) {
		for (String requirement : splitRequirements(selector)) {
			String trimmed = requirement.trim();
			String at = "at '" + trimmed + "'";
			if (trimmed.isEmpty()) {
				return "an empty requirement " + at;
			}
			Matcher set = SET.matcher(trimmed);
			if (set.matches()) {
				String values = set.group(set.groupCount());
				if (values.isBlank()) {
					// labels.Parse reads "()" as the set of the empty value
					return at + ": an empty set, which the API server reads as " + set.group(1) + " "
							+ set.group(set.groupCount() - 1) + " (\"\"), comparing with an empty label value";
				}
				for (String value : values.split(",", -1)) {
					if (!value.trim().matches(VALUE)) {
						return "an invalid value '" + value.trim() + "' " + at;
					}
				}
				continue;
			}
			Matcher order = ORDER.matcher(trimmed);
			if (order.matches()) {
				try {
					Long.parseLong(order.group(order.groupCount()));
				}
				catch (NumberFormatException ex) {
					return at + ": the value of '>' and '<' must fit in a 64-bit integer";
				}
				continue;
			}
			if (!EQUALITY.matcher(trimmed).matches() && !EXISTS.matcher(trimmed).matches()) {
				return at;
			}
		}
		return null;
	}

	/**
	 * Parse a field selector into its requirements: terms separated by unescaped commas,
	 * each {@code field=value}, {@code field==value} or {@code field!=value}, the value
	 * with {@code \,}, {@code \=} and {@code \\} escaped.
	 * @param selector the selector
	 * @return the requirements, in order
	 * @throws IllegalArgumentException naming the offending requirement and what is wrong
	 */
	static List<FieldRequirement> parseFieldSelector(String selector) {
		List<FieldRequirement> requirements = new ArrayList<>();
		for (String term : splitFieldTerms(selector)) {
			requirements.add(parseFieldTerm(term.trim()));
		}
		return requirements;
	}

	/**
	 * Return the field selector to send to the API server: every requirement, in the
	 * declared order and escaped as declared, without the blanks around fields and
	 * values.
	 * @param selector a valid field selector
	 * @return the selector to send
	 */
	static String fieldSelectorQuery(String selector) {
		return parseFieldSelector(selector).stream().map(FieldRequirement::toString).collect(Collectors.joining(","));
	}

	private static FieldRequirement parseFieldTerm(String term) {
		for (int i = 0; i < term.length(); i++) {
			for (String operator : FIELD_OPERATORS) {
				if (term.startsWith(operator, i)) {
					String field = term.substring(0, i).trim();
					if (!FIELD.matcher(field).matches()) {
						throw new IllegalArgumentException("'" + term + "': '" + field + "' is not a field path");
					}
					String value = unescape(term, term.substring(i + operator.length()).trim());
					return new FieldRequirement(field, operator, value);
				}
			}
		}
		throw new IllegalArgumentException("'" + term + "': no '=', '==' or '!='");
	}

	private static String unescape(String term, String value) {
		StringBuilder result = new StringBuilder(value.length());
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c == '\\') {
				char next = (i + 1 < value.length()) ? value.charAt(i + 1) : 0;
				if (next != '\\' && next != ',' && next != '=') {
					throw new IllegalArgumentException("'" + term + "': '\\" + ((next != 0) ? next : "")
							+ "' is not an escape (only \\, \\= and \\\\ are)");
				}
				result.append(next);
				i++;
			}
			else if (c == '=' || c == ',') {
				throw new IllegalArgumentException(
						"'" + term + "': '" + c + "' in a value must be escaped as '\\" + c + "'");
			}
			else {
				result.append(c);
			}
		}
		return result.toString();
	}

	private static String escape(String value) {
		return value.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=");
	}

	private static List<String> splitFieldTerms(String selector) {
		List<String> result = new ArrayList<>();
		int start = 0;
		for (int i = 0; i < selector.length(); i++) {
			char c = selector.charAt(i);
			if (c == '\\') {
				i++;
			}
			else if (c == ',') {
				result.add(selector.substring(start, i));
				start = i + 1;
			}
		}
		result.add(selector.substring(start));
		return result;
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
	 * @param operator {@code =}, {@code ==} or {@code !=}
	 * @param value the value, unescaped
	 */
	record FieldRequirement(String field, String operator, String value) {

		/**
		 * Return whether the field must equal the value ({@code false} for {@code !=}).
		 * @return whether this is an equality
		 */
		boolean equal() {
			return !"!=".equals(this.operator);
		}

		@Override
		public String toString() {
			return this.field + this.operator + escape(this.value);
		}

	}

}
