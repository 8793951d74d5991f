package dev.informer.autoconfigure.aot;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * The hints of model classes: what Jackson needs to read them (Spring's
 * {@link BindingReflectionHintsRegistrar}: constructors, accessors, the classes their
 * properties hold), and the declared fields of each model class reached, which the
 * starter's on-change filters, prune transforms and index functions read.
 */
final class ModelHints {

	private ModelHints() {
	}

	/**
	 * Register the hints of model classes and of the list class beside each, if any.
	 * @param hints the hints
	 * @param types the model classes
	 */
	static void register(RuntimeHints hints, List<Class<?>> types) {
		BindingReflectionHintsRegistrar binding = new BindingReflectionHintsRegistrar();
		Set<Class<?>> seen = new HashSet<>();
		for (Class<?> type : types) {
			binding.registerReflectionHints(hints.reflection(), type);
			fields(hints, type, seen);
			Class<?> list = listOf(type);
			if (list != null) {
				binding.registerReflectionHints(hints.reflection(), list);
			}
		}
	}

	/** fabric8's list class of a kind, {@code ConfigMap} → {@code ConfigMapList}. */
	private static Class<?> listOf(Class<?> type) {
		String name = type.getName() + "List";
		return ClassUtils.isPresent(name, type.getClassLoader())
				? ClassUtils.resolveClassName(name, type.getClassLoader()) : null;
	}

	private static void fields(RuntimeHints hints, Class<?> type, Set<Class<?>> seen) {
		if (!isModel(type) || !seen.add(type)) {
			return;
		}
		hints.reflection().registerType(type, MemberCategory.ACCESS_DECLARED_FIELDS);
		for (Field field : type.getDeclaredFields()) {
			if (Modifier.isStatic(field.getModifiers())) {
				continue;
			}
			ResolvableType fieldType = ResolvableType.forField(field);
			fields(hints, fieldType.toClass(), seen);
			for (ResolvableType generic : fieldType.getGenerics()) {
				fields(hints, generic.toClass(), seen);
			}
		}
		Class<?> superclass = type.getSuperclass();
		if (superclass != null) {
			fields(hints, superclass, seen);
		}
	}

	private static boolean isModel(Class<?> type) {
		return !type.isPrimitive() && !type.isArray() && !type.isEnum() && !type.getName().startsWith("java.")
				&& type != Object.class;
	}

}
