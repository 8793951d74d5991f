package dev.informer.runtime.changes;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * The JSON properties of a model class by the names the API server uses, found once per
 * class from the fields' {@code @JsonProperty} (fabric8's models and CustomResource
 * classes declare one on each field), read and written through their accessors.
 */
final class ModelProperties {

	private static final ClassValue<ModelProperties> CACHE = new ClassValue<>() {

		@Override
		protected ModelProperties computeValue(Class<?> type) {
			return new ModelProperties(type);
		}

	};

	private final Map<String, Property> properties = new LinkedHashMap<>();

	private final @Nullable Method additionalProperties;

	private ModelProperties(Class<?> type) {
		for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
			for (Field field : current.getDeclaredFields()) {
				if (Modifier.isStatic(field.getModifiers()) || field.isSynthetic()
						|| field.isAnnotationPresent(JsonIgnore.class)) {
					continue;
				}
				JsonProperty json = field.getAnnotation(JsonProperty.class);
				String name = (json != null && StringUtils.hasText(json.value())) ? json.value() : field.getName();
				this.properties.putIfAbsent(name, new Property(field, accessor(type, "get", field),
						accessor(type, "is", field), setter(type, field)));
			}
		}
		this.additionalProperties = ReflectionUtils.findMethod(type, "getAdditionalProperties");
	}

	static ModelProperties of(Class<?> type) {
		return CACHE.get(type);
	}

	/**
	 * Whether values of the class are read as objects with properties: fabric8's models
	 * and CustomResource classes, not JDK types.
	 */
	static boolean isModel(Class<?> type) {
		return !type.isPrimitive() && !type.isEnum() && !type.getName().startsWith("java.") && type != Object.class;
	}

	@Nullable Type typeOf(String name) {
		Property property = this.properties.get(name);
		return (property != null) ? property.field().getGenericType() : null;
	}

	boolean hasAdditionalProperties() {
		return this.additionalProperties != null;
	}

	@Nullable Object get(Object target, String name) {
		Property property = this.properties.get(name);
		if (property != null) {
			return property.get(target);
		}
		Map<String, Object> additional = additional(target);
		return (additional != null) ? additional.get(name) : null;
	}

	void remove(Object target, String name) {
		Property property = this.properties.get(name);
		if (property != null) {
			property.set(target, null);
			return;
		}
		Map<String, Object> additional = additional(target);
		if (additional != null) {
			additional.remove(name);
		}
	}

	@SuppressWarnings("unchecked")
	private @Nullable Map<String, Object> additional(Object target) {
		if (this.additionalProperties == null) {
			return null;
		}
		return (Map<String, Object>) invoke(this.additionalProperties, target);
	}

	private static @Nullable Method accessor(Class<?> type, String prefix, Field field) {
		Method method = ReflectionUtils.findMethod(type, prefix + StringUtils.capitalize(field.getName()));
		return (method != null && method.getParameterCount() == 0) ? method : null;
	}

	private static @Nullable Method setter(Class<?> type, Field field) {
		return ReflectionUtils.findMethod(type, "set" + StringUtils.capitalize(field.getName()), field.getType());
	}

	private static @Nullable Object invoke(Method method, Object target, @Nullable Object... args) {
		try {
			return method.invoke(target, args);
		}
		catch (IllegalAccessException | InvocationTargetException ex) {
			throw new IllegalStateException("Cannot call " + method, ex);
		}
	}

	private record Property(Field field, @Nullable Method getter, @Nullable Method isGetter, @Nullable Method setter) {

		@Nullable Object get(Object target) {
			Method method = (this.getter != null) ? this.getter : this.isGetter;
			if (method != null) {
				return invoke(method, target);
			}
			ReflectionUtils.makeAccessible(this.field);
			return ReflectionUtils.getField(this.field, target);
		}

		void set(Object target, @Nullable Object value) {
			if (this.setter != null) {
				invoke(this.setter, target, value);
				return;
			}
			ReflectionUtils.makeAccessible(this.field);
			ReflectionUtils.setField(this.field, target, value);
		}

	}

}
