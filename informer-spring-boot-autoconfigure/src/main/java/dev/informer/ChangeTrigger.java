package dev.informer;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * The named parts an {@code on-change} declaration may list, each standing for one or
 * more {@link ResourcePath paths}. An update is delivered when any declared part differs
 * from the state last delivered.
 *
 * @since 0.1.0
 */
public enum ChangeTrigger {

	/** {@code metadata.generation}: the API server bumps it on changes of the spec. */
	GENERATION("metadata.generation"),

	/** {@code metadata.labels}. */
	LABELS("metadata.labels"),

	/** {@code metadata.annotations}. */
	ANNOTATIONS("metadata.annotations"),

	/** {@code metadata.finalizers}. */
	FINALIZERS("metadata.finalizers"),

	/** {@code metadata.ownerReferences}. */
	OWNERS("metadata.ownerReferences"),

	/** {@code metadata.deletionTimestamp}: the object is being deleted. */
	DELETION("metadata.deletionTimestamp"),

	/** {@code status}. */
	STATUS("status"),

	/** {@code spec}. */
	SPEC("spec"),

	/**
	 * {@code data} and {@code binaryData}, where the kind has them (ConfigMap, Secret).
	 */
	DATA("data", "binaryData"),

	/** Every update, as without {@code on-change}. */
	ANY;

	private final List<ResourcePath> paths;

	ChangeTrigger(String... paths) {
		this.paths = Arrays.stream(paths).map(ResourcePath::parse).toList();
	}

	/**
	 * Return the paths this part stands for; empty for {@link #ANY}.
	 * @return the paths
	 */
	public List<ResourcePath> getPaths() {
		return this.paths;
	}

	/**
	 * Return the name as declared, for example {@code generation}.
	 * @return the name
	 */
	public String getValue() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * Return whether every path of this part is in {@code metadata}.
	 * @return whether a metadata-only informer has this part
	 */
	public boolean isMetadata() {
		return this != ANY && this.paths.stream().allMatch(ResourcePath::isMetadata);
	}

	/**
	 * Return the part of a name, as declared.
	 * @param value the declared name, for example {@code labels}
	 * @return the part, or {@code null} if the name is none
	 */
	public static @Nullable ChangeTrigger of(String value) {
		for (ChangeTrigger trigger : values()) {
			if (trigger.getValue().equals(value)) {
				return trigger;
			}
		}
		return null;
	}

	/**
	 * Return the declared names of all parts, for messages.
	 * @return the names, separated by {@code ", "}
	 */
	public static String names() {
		return Arrays.stream(values()).map(ChangeTrigger::getValue).collect(Collectors.joining(", "));
	}

}
