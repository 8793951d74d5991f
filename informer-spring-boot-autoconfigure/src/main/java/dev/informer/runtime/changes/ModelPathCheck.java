package dev.informer.runtime.changes;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

import dev.informer.ChangeTrigger;
import dev.informer.InformerDeclaration;
import dev.informer.InvalidInformerDeclarationException;
import dev.informer.ResourcePath;
import dev.informer.ResourcePath.Segment;

/**
 * Checks the paths of {@code on-change}, {@code prune} and {@code indexes} against the
 * kind's model class, where it tells: a typed kind's fields, the metadata of every kind.
 * A {@code GenericKubernetesResource} has no schema here, so only its metadata is
 * checked. Also refuses {@code generation} on the kinds known not to bump it.
 *
 * @since 0.1.0
 */
public final class ModelPathCheck {

	/**
	 * Kinds whose {@code metadata.generation} the API server never sets, by
	 * {@code group/Kind} (empty group for the core group). Others are caught by the first
	 * list, see {@link ChangeFilter#lacksGeneration}.
	 */
	static final Set<String> WITHOUT_GENERATION = Set.of("/ConfigMap", "/Secret", "/ServiceAccount", "/Endpoints",
			"/Event", "events.k8s.io/Event", "coordination.k8s.io/Lease", "rbac.authorization.k8s.io/Role",
			"rbac.authorization.k8s.io/RoleBinding", "rbac.authorization.k8s.io/ClusterRole",
			"rbac.authorization.k8s.io/ClusterRoleBinding");

	private ModelPathCheck() {
	}

	/**
	 * Check a declaration against the class its objects are read into.
	 * @param declaration the declaration
	 * @param type the model class of the kind (its full form, also for a metadata-only
	 * informer)
	 * @throws InvalidInformerDeclarationException naming the property, the value and the
	 * fix
	 */
	public static void check(InformerDeclaration declaration, Class<? extends HasMetadata> type) {
		if (declaration.isOnGenerationChange()
				&& WITHOUT_GENERATION.contains(declaration.getGroup() + "/" + declaration.getKind())) {
			throw generationNotBumped(declaration);
		}
		List<String> onChange = declaration.getOnChange();
		for (int i = 0; i < onChange.size(); i++) {
			ChangeTrigger trigger = ChangeTrigger.of(onChange.get(i));
			List<ResourcePath> paths = (trigger != null) ? trigger.getPaths()
					: List.of(ResourcePath.parse(onChange.get(i)));
			String firstProblem = null;
			int found = 0;
			for (ResourcePath path : paths) {
				String problem = problem(type, path);
				if (problem == null) {
					found++;
				}
				else if (firstProblem == null) {
					firstProblem = problem;
				}
			}
			if (found == 0 && firstProblem != null) {
				throw new InvalidInformerDeclarationException(declaration.getName(), "on-change[" + i + "]",
						onChange.get(i), "does not exist in " + declaration.getKind() + ": " + firstProblem,
						alternative(type, trigger));
			}
		}
		List<ResourcePath> prune = declaration.getPrune();
		for (int i = 0; i < prune.size(); i++) {
			fail(declaration, type, "prune[" + i + "]", prune.get(i));
		}
		declaration.getIndexes().forEach((name, path) -> fail(declaration, type, "indexes." + name, path));
	}

	/**
	 * The failure for {@code generation} on a kind that does not bump it.
	 * @param declaration the declaration
	 * @return the exception
	 */
	public static InvalidInformerDeclarationException generationNotBumped(InformerDeclaration declaration) {
		int index = declaration.getOnChange().indexOf(ChangeTrigger.GENERATION.getValue());
		return new InvalidInformerDeclarationException(declaration.getName(), "on-change[" + index + "]",
				ChangeTrigger.GENERATION.getValue(),
				"never changes on " + declaration.getKind()
						+ ": the API server does not set metadata.generation for this kind, so every edit would be "
						+ "held back",
				"Compare what changes instead: 'data' for a ConfigMap or Secret, 'labels', 'annotations', or a "
						+ "path such as spec.replicas.");
	}

	private static void fail(InformerDeclaration declaration, Class<?> type, String property, ResourcePath path) {
		String problem = problem(type, path);
		if (problem != null) {
			throw new InvalidInformerDeclarationException(declaration.getName(), property, path.toString(),
					"does not exist in " + declaration.getKind() + ": " + problem,
					"Use the field names of the kind's JSON (kubectl explain "
							+ declaration.getKind().toLowerCase(Locale.ROOT)
							+ "), a map key as ['key'] and [*] for the elements of a list.");
		}
	}

	private static String alternative(Class<?> type, @Nullable ChangeTrigger trigger) {
		List<String> parts = Arrays.stream(ChangeTrigger.values())
			.filter((candidate) -> candidate != ChangeTrigger.ANY && candidate != trigger)
			.filter((candidate) -> candidate.getPaths().stream().anyMatch((path) -> problem(type, path) == null))
			.map(ChangeTrigger::getValue)
			.toList();
		return "Use a part the kind has (" + String.join(", ", parts)
				+ ") or a path of its JSON fields, for example metadata.labels['app'].";
	}

	/**
	 * What is wrong with a path into a class, or {@code null} if the class allows it.
	 */
	static @Nullable String problem(Class<?> type, ResourcePath path) {
		Type current = type;
		if (type == GenericKubernetesResource.class && !path.isMetadata()) {
			return null;
		}
		String walked = "";
		for (Segment segment : path.getSegments()) {
			Class<?> raw = raw(current);
			if (raw == null || raw == Object.class || isOpen(raw)) {
				return null;
			}
			if (Map.class.isAssignableFrom(raw)) {
				if (segment.type() == ResourcePath.SegmentType.EACH) {
					return walked + " is a map: select an entry with ['key']";
				}
				current = typeArgument(current, 1);
			}
			else if (Collection.class.isAssignableFrom(raw)) {
				if (segment.type() != ResourcePath.SegmentType.EACH) {
					return walked + " is a list: select its elements with [*]";
				}
				current = typeArgument(current, 0);
			}
			else if (segment.type() == ResourcePath.SegmentType.EACH) {
				return walked + " is not a list";
			}
			else if (!ModelProperties.isModel(raw)) {
				return walked + " is a value (" + raw.getSimpleName() + "), without fields";
			}
			else {
				Type next = ModelProperties.of(raw).typeOf(segment.name());
				if (next == null) {
					return ((walked.isEmpty()) ? "the kind" : walked) + " has no field '" + segment.name() + "'";
				}
				current = next;
			}
			walked = walked.isEmpty() ? segment.name()
					: walked + ((segment.type() == ResourcePath.SegmentType.FIELD) ? "." + segment.name()
							: (segment.type() == ResourcePath.SegmentType.EACH) ? "[*]" : "['" + segment.name() + "']");
		}
		return null;
	}

	private static boolean isOpen(Class<?> raw) {
		// schemaless values: anything may be below them
		return raw.getName().startsWith("tools.jackson.") || raw.getSimpleName().equals("AnyType");
	}

	private static @Nullable Class<?> raw(@Nullable Type type) {
		if (type instanceof Class<?> c) {
			return c;
		}
		if (type instanceof ParameterizedType parameterized) {
			return raw(parameterized.getRawType());
		}
		if (type instanceof WildcardType wildcard) {
			return raw(wildcard.getUpperBounds()[0]);
		}
		return null;
	}

	private static @Nullable Type typeArgument(Type type, int index) {
		if (type instanceof ParameterizedType parameterized && parameterized.getActualTypeArguments().length > index) {
			return parameterized.getActualTypeArguments()[index];
		}
		return Object.class;
	}

}
