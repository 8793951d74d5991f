package dev.informer.autoconfigure;

import java.beans.PropertyDescriptor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import dev.informer.DeclarationRules;

/**
 * The keys {@link InformerProperties} binds, to find the keys under {@code informer.} it
 * does not: Spring Boot ignores those, so that a typo such as {@code lable-selector}
 * would leave an informer watching everything. The tree of keys is read from the
 * properties class itself (a property is bound when it has a getter, and a setter or a
 * nested group), so that a new property, or a deprecated alias, is known without a list
 * to keep. Keys are compared in Spring Boot's relaxed form: {@code labelSelector} and
 * {@code label_selector} are {@code label-selector}. The values of free-form maps
 * ({@code indexes}) and the names of informers are not keys.
 * <p>
 * Environment variables and JVM system properties are not checked, only the sources an
 * application's configuration comes from (files, command-line arguments, test
 * properties): Kubernetes gives every pod variables such as {@code INFORMER_PORT} and
 * {@code INFORMER_SERVICE_HOST} for a Service named {@code informer}, and build tools
 * pass their own properties on as system properties (Maven Surefire a project's
 * {@code <informer.version>}). A key set there binds as usual when it is known.
 */
final class InformerPropertyKeys {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("informer");

	/**
	 * Groups under {@code informer.} that other configuration properties bind: the test
	 * starter's {@code informer.test.*}.
	 */
	private static final Set<String> OTHER_GROUPS = Set.of("test");

	private static final Node TREE = Node.group(InformerProperties.class);

	private InformerPropertyKeys() {
	}

	/**
	 * Fail on the first key under {@code informer.} that binds to nothing.
	 * @param sources the environment's property sources
	 * @throws UnknownInformerPropertyException naming the key, the nearest known key and
	 * where it was set
	 */
	static void check(Iterable<ConfigurationPropertySource> sources) {
		List<UnknownInformerPropertyException> unknown = unknown(sources);
		if (!unknown.isEmpty()) {
			throw unknown.get(0);
		}
	}

	/**
	 * Return the keys under {@code informer.} that bind to nothing, one exception each.
	 * @param sources the environment's property sources
	 * @return the unknown keys, in the order of the sources
	 */
	static List<UnknownInformerPropertyException> unknown(Iterable<ConfigurationPropertySource> sources) {
		Map<String, UnknownInformerPropertyException> unknown = new LinkedHashMap<>();
		for (ConfigurationPropertySource source : sources) {
			if (!(source instanceof IterableConfigurationPropertySource iterable) || isFromTheSystem(source)) {
				continue;
			}
			iterable.filter(ROOT::isAncestorOf).forEach((name) -> {
				if (!OTHER_GROUPS.contains(name.getElement(1, Form.UNIFORM))) {
					UnknownInformerPropertyException failure = check(source, name);
					if (failure != null) {
						unknown.putIfAbsent(failure.getName(), failure);
					}
				}
			});
		}
		return List.copyOf(unknown.values());
	}

	private static boolean isFromTheSystem(ConfigurationPropertySource source) {
		Object underlying = source.getUnderlyingSource();
		return underlying instanceof SystemEnvironmentPropertySource || (underlying instanceof PropertySource<?> system
				&& StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME.equals(system.getName()));
	}

	private static @Nullable UnknownInformerPropertyException check(ConfigurationPropertySource source,
			ConfigurationPropertyName name) {
		Node node = TREE;
		String informer = null;
		List<String> path = new ArrayList<>();
		int i = 1;
		while (i < name.getNumberOfElements()) {
			if (node.kind == Kind.FREE_FORM) {
				return null;
			}
			if (node.kind == Kind.LEAF) {
				// a list's elements, as namespaces[0]
				return name.isNumericIndex(i) ? null : unknown(source, name, informer, path, i, node);
			}
			if (node.kind == Kind.NAMED) {
				informer = name.getElement(i, Form.ORIGINAL);
				path.clear();
				node = node.entries();
				i++;
				continue;
			}
			String uniform = name.getElement(i, Form.UNIFORM);
			Node child = node.children.get(uniform);
			if (child == null) {
				return unknown(source, name, informer, path, i, node);
			}
			path.add(node.dashed.get(uniform));
			node = child;
			i++;
		}
		return null;
	}

	private static UnknownInformerPropertyException unknown(ConfigurationPropertySource source,
			ConfigurationPropertyName name, @Nullable String informer, List<String> path, int i, Node node) {
		String written = name.getElement(i, Form.DASHED);
		StringBuilder rest = new StringBuilder();
		for (int j = i + 1; j < name.getNumberOfElements(); j++) {
			rest.append(name.isNumericIndex(j) ? "[" + name.getElement(j, Form.ORIGINAL) + "]"
					: "." + name.getElement(j, Form.ORIGINAL));
		}
		String prefix = path.isEmpty() ? "" : String.join(".", path) + ".";
		List<String> known = List.copyOf(node.dashed.values());
		List<String> nearest = DeclarationRules.nearest(written, known)
			.stream()
			.map((key) -> prefix + key + rest)
			.toList();
		ConfigurationProperty property = source.getConfigurationProperty(name);
		Object value = (property != null) ? property.getValue() : null;
		Origin origin = (property != null) ? property.getOrigin() : null;
		return new UnknownInformerPropertyException(informer, prefix + written + rest, value,
				(origin != null) ? origin.toString() : null, nearest,
				known.stream().map((key) -> prefix + key).toList());
	}

	private enum Kind {

		/** A value (or a list of values). */
		LEAF,

		/** A nested group of properties. */
		GROUP,

		/** Named entries of a group each, as the informers under resources. */
		NAMED,

		/** A map whose keys are the user's, as indexes. */
		FREE_FORM

	}

	/**
	 * A key of the tree: its children by uniform name, with their dashed names.
	 */
	private record Node(Kind kind, Map<String, Node> children, Map<String, String> dashed, @Nullable Node entry) {

		static Node group(Class<?> type) {
			Map<String, Node> children = new LinkedHashMap<>();
			Map<String, String> dashed = new LinkedHashMap<>();
			for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
				if (descriptor.getReadMethod() == null || descriptor.getName().equals("class")) {
					continue;
				}
				Node child = of(descriptor.getReadMethod().getGenericReturnType());
				if (child.kind != Kind.GROUP && child.kind != Kind.NAMED && descriptor.getWriteMethod() == null) {
					// not bound: Spring Boot sets a value through a setter only
					continue;
				}
				String uniform = descriptor.getName().toLowerCase(Locale.ROOT);
				children.put(uniform, child);
				dashed.put(uniform, descriptor.getName().replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT));
			}
			return new Node(Kind.GROUP, children, dashed, null);
		}

		private static Node of(Type type) {
			if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == Map.class) {
				Type value = parameterized.getActualTypeArguments()[1];
				return isGroup(value) ? new Node(Kind.NAMED, Map.of(), Map.of(), group((Class<?>) value))
						: new Node(Kind.FREE_FORM, Map.of(), Map.of(), null);
			}
			return isGroup(type) ? group((Class<?>) type) : new Node(Kind.LEAF, Map.of(), Map.of(), null);
		}

		/**
		 * Whether a type is one of the nested groups of the properties.
		 */
		private static boolean isGroup(Type type) {
			return type instanceof Class<?> candidate && candidate.getEnclosingClass() != null && !candidate.isEnum()
					&& isInProperties(candidate);
		}

		private static boolean isInProperties(Class<?> type) {
			for (Class<?> enclosing = type.getEnclosingClass(); enclosing != null; enclosing = enclosing
				.getEnclosingClass()) {
				if (enclosing == InformerProperties.class) {
					return true;
				}
			}
			return false;
		}

		Node entries() {
			Node entry = this.entry;
			if (entry == null) {
				throw new IllegalStateException("Not a map of groups");
			}
			return entry;
		}

	}

}
