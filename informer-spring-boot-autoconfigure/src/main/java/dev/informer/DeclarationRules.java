package dev.informer;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * The rules of an informer declaration that can be told without the API server, in one
 * place and one wording: what {@link InformerDeclarationBuilder#build()} checks of each
 * declaration, and what binding the {@code informer.*} properties checks of the defaults
 * each declaration inherits ({@code informer.resync-period},
 * {@code informer.list-page-size}), by the same rule as the informer's own value. Each
 * failure is an {@link InvalidInformerDeclarationException} naming the property, the bad
 * value, what is wrong and the fix.
 * <p>
 * The paths of {@code on-change}, {@code prune} and {@code indexes} are checked as they
 * are parsed, in the same wording; what needs the API server (whether the kind is served,
 * whether it is namespaced) is checked when the informer is created.
 *
 * @since 0.1.0
 */
public final class DeclarationRules {

	private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

	private static final Pattern API_VERSION = Pattern
		.compile("([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?v[0-9]+((alpha|beta)[0-9]+)?");

	private static final Pattern KIND = Pattern.compile("[A-Z][A-Za-z0-9]*");

	private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

	private DeclarationRules() {
	}

	/**
	 * Check the defaults that every declaration inherits unless it sets its own.
	 * @param resyncPeriod the default resync period ({@code informer.resync-period})
	 * @param listPageSize the default page size of list requests
	 * ({@code informer.list-page-size})
	 * @throws InvalidInformerDeclarationException if a default cannot work
	 */
	public static void checkDefaults(Duration resyncPeriod, long listPageSize) {
		Scope defaults = new Scope(null);
		checkResyncPeriod(defaults, resyncPeriod);
		checkListPageSize(defaults, listPageSize);
	}

	/**
	 * Check a declaration.
	 * @param declaration the declaration, its values trimmed
	 * @param apiVersion the API version as declared, before trimming
	 * @param kind the kind as declared, before trimming
	 */
	static void check(InformerDeclaration declaration, @Nullable String apiVersion, @Nullable String kind) {
		Scope informer = new Scope(declaration.getName());
		if (!NAME.matcher(declaration.getName()).matches()) {
			throw informer.invalid("name", declaration.getName(), "is not a valid informer name",
					"Use lower-case letters, digits and '-' (it becomes a metric tag and a URL path segment).");
		}
		checkKind(informer, declaration.getKind(), kind);
		checkApiVersion(informer, declaration.getApiVersion(), apiVersion);
		checkNamespaces(informer, declaration.getNamespaces());
		checkLabelSelector(informer, "label-selector", declaration.getLabelSelector());
		checkLabelSelector(informer, "namespace-selector", declaration.getNamespaceSelector());
		checkNamespacesOrSelector(informer, declaration.getNamespaces(), declaration.getNamespaceSelector());
		if (declaration.getFieldSelector() != null) {
			checkFieldSelector(informer, declaration.getFieldSelector());
		}
		if (declaration.getCache() == CacheMode.METADATA && declaration.getType() != null) {
			throw informer.invalid("type", declaration.getType(), "cannot be combined with 'cache: metadata'",
					"Remove 'type': a metadata-only informer delivers "
							+ "io.fabric8.kubernetes.api.model.PartialObjectMetadata, or set 'cache: full'.");
		}
		checkResyncPeriod(informer, declaration.getResyncPeriod());
		checkListPageSize(informer, declaration.getListPageSize());
	}

	/**
	 * Return the candidates closest to a misspelt value, nearest first, for a message's
	 * "did you mean": those within a few edits of it, or that it starts (ignoring case,
	 * '-' and '_'), at most three.
	 * @param value the misspelt value, for example {@code lable-selector}
	 * @param candidates the valid values
	 * @return the nearest candidates, empty when none is close
	 */
	public static List<String> nearest(String value, Collection<String> candidates) {
		String wrong = uniform(value);
		int allowed = Math.max(2, wrong.length() / 3);
		return candidates.stream()
			.distinct()
			.map((candidate) -> Map.entry(candidate, closeness(wrong, uniform(candidate))))
			.filter((entry) -> entry.getValue() <= allowed)
			.sorted(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
			.limit(3)
			.map(Map.Entry::getKey)
			.toList();
	}

	/**
	 * The edit distance, or 1 when one is the start of the other ('resync' for
	 * 'resync-period').
	 */
	private static int closeness(String wrong, String candidate) {
		boolean prefix = Math.min(wrong.length(), candidate.length()) >= 4
				&& (candidate.startsWith(wrong) || wrong.startsWith(candidate));
		return prefix ? Math.min(1, distance(wrong, candidate)) : distance(wrong, candidate);
	}

	private static String uniform(String value) {
		return value.replaceAll("[-_.]", "").toLowerCase(Locale.ROOT);
	}

	/**
	 * The edit distance of two strings (insertions, deletions, substitutions and
	 * transpositions of neighbours).
	 */
	private static int distance(String a, String b) {
		int[][] d = new int[a.length() + 1][b.length() + 1];
		for (int i = 0; i <= a.length(); i++) {
			d[i][0] = i;
		}
		for (int j = 0; j <= b.length(); j++) {
			d[0][j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			for (int j = 1; j <= b.length(); j++) {
				int cost = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
				d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
				if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
					d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
				}
			}
		}
		return d[a.length()][b.length()];
	}

	private static void checkKind(Scope informer, String kind, @Nullable String declared) {
		if (kind.isEmpty()) {
			throw informer.invalid("kind", declared, "is missing",
					"Set the Kubernetes kind to watch, for example 'kind: ConfigMap'.");
		}
		if (!KIND.matcher(kind).matches()) {
			throw informer.invalid("kind", kind, "is not a Kubernetes kind",
					"Use the kind as the API server spells it, in UpperCamelCase, for example 'ConfigMap'.");
		}
	}

	private static void checkApiVersion(Scope informer, String apiVersion, @Nullable String declared) {
		if (apiVersion.isEmpty()) {
			throw informer.invalid("api-version", declared, "is missing",
					"Set the API version of the kind, for example 'v1' for core kinds or 'apps/v1'.");
		}
		if (!API_VERSION.matcher(apiVersion).matches()) {
			throw informer.invalid("api-version", apiVersion, "is not a Kubernetes API version",
					"Use 'v1' for the core group or 'group/version' such as 'apps/v1' or 'example.com/v1alpha1'.");
		}
	}

	private static void checkNamespaces(Scope informer, List<String> namespaces) {
		for (int i = 0; i < namespaces.size(); i++) {
			String namespace = namespaces.get(i);
			if (!StringUtils.hasText(namespace)) {
				throw informer.invalid("namespaces[" + i + "]", namespace, "is blank",
						"Remove the blank entry; leave 'namespaces' empty to watch all namespaces.");
			}
			if (!NAMESPACE.matcher(namespace).matches()) {
				throw informer.invalid("namespaces[" + i + "]", namespace, "is not a valid namespace name",
						"Namespace names are lower-case RFC 1123 labels, for example 'team-a'.");
			}
		}
		if (new LinkedHashSet<>(namespaces).size() != namespaces.size()) {
			throw informer.invalid("namespaces", namespaces, "lists a namespace twice", "List each namespace once.");
		}
	}

	private static void checkNamespacesOrSelector(Scope informer, List<String> namespaces, @Nullable String selector) {
		if (selector != null && !namespaces.isEmpty()) {
			throw informer.invalid("namespace-selector", selector,
					"is set together with 'namespaces' " + namespaces
							+ ": the namespaces to watch are either listed or chosen by label",
					"Remove 'namespaces' to watch the namespaces whose labels match the selector, or remove "
							+ "'namespace-selector' to watch the listed namespaces.");
		}
	}

	private static void checkLabelSelector(Scope informer, String property, @Nullable String selector) {
		if (selector == null) {
			return;
		}
		String problem = Selectors.labelSelectorProblem(selector);
		if (problem != null) {
			throw informer.invalid(property, selector, "is not a valid label selector (" + problem + ")",
					"Use the kubectl syntax, for example 'app=web', 'tier in (web,api)', 'replicas>1', "
							+ "'!legacy', requirements separated by ','. A set lists at least one value: "
							+ "to select an empty value write 'app=', to select objects without the label "
							+ "write '!app'.");
		}
	}

	private static void checkFieldSelector(Scope informer, String selector) {
		List<Selectors.FieldRequirement> requirements;
		try {
			requirements = Selectors.parseFieldSelector(selector);
		}
		catch (IllegalArgumentException ex) {
			throw informer.invalid("field-selector", selector,
					"is not a valid field selector (at " + ex.getMessage() + ")",
					"Use 'field=value' or 'field!=value' separated by ',', for example "
							+ "'metadata.name!=kube-root-ca.crt'; escape ',', '=' and '\\' in a value "
							+ "as '\\,', '\\=' and '\\\\'.");
		}
		// the API server ANDs the requirements, and a field has one value: two values
		// required of one field select nothing, ever (the user most likely meant OR,
		// which field selectors cannot say)
		Map<String, String> required = new LinkedHashMap<>();
		for (Selectors.FieldRequirement requirement : requirements) {
			if (!requirement.equal()) {
				continue;
			}
			String earlier = required.putIfAbsent(requirement.field(), requirement.value());
			if (earlier != null && !earlier.equals(requirement.value())) {
				throw informer.invalid("field-selector", selector,
						"requires " + requirement.field() + " to equal both '" + earlier + "' and '"
								+ requirement.value() + "': the API server applies every requirement, so it "
								+ "would never select an object",
						"Field selectors have no OR: declare one informer per value, or select by a label "
								+ "with 'key in (a,b)'.");
			}
		}
	}

	private static void checkResyncPeriod(Scope scope, Duration resyncPeriod) {
		if (resyncPeriod.isNegative()) {
			throw scope.invalid("resync-period", resyncPeriod, "is negative",
					"Use a positive duration such as '5m', or '0s' to disable resync.");
		}
		if (!resyncPeriod.isZero() && resyncPeriod.toMillis() < 1000) {
			throw scope.invalid("resync-period", resyncPeriod, "is shorter than one second",
					"Use at least '1s' (fabric8 enforces that minimum), or '0s' to disable resync.");
		}
	}

	private static void checkListPageSize(Scope scope, long listPageSize) {
		if (listPageSize < 0) {
			throw scope.invalid("list-page-size", listPageSize, "is negative",
					"Use a positive page size (a page size such as 500 splits very large lists), or 0 to list "
							+ "in one request from the API server's watch cache.");
		}
	}

	/**
	 * Whose value a rule checks: an informer's, or a default ({@code informer} is
	 * {@code null}).
	 */
	private record Scope(@Nullable String informer) {

		InvalidInformerDeclarationException invalid(String property, @Nullable Object value, String problem,
				String action) {
			return (this.informer != null)
					? new InvalidInformerDeclarationException(this.informer, property, value, problem, action)
					: InvalidInformerDeclarationException.ofDefault(property, value, problem, action);
		}

	}

}
