package dev.informer.watch;

import org.jspecify.annotations.Nullable;

/**
 * An object a watch skipped because it does not decode into the informer's class (a CRD
 * whose schema drifted ahead of the Java class): who it is and where it fails, never its
 * content (the value that failed may be Secret data).
 *
 * @param kind the object's kind
 * @param namespace its namespace, {@code null} for a cluster-scoped object
 * @param name its name
 * @param uid its uid, {@code null} if it has none
 * @param resourceVersion the resourceVersion that does not decode
 * @param fieldPath where it fails, as a JSON path from the object ({@code spec.replicas})
 * @param problem the exception's type and the expected type, never the value
 * @since 0.1.0
 */
public record UndecodableObject(String kind, @Nullable String namespace, String name, @Nullable String uid,
		@Nullable String resourceVersion, String fieldPath, String problem) {

	/**
	 * Return the object's cache key: {@code namespace/name}, or the name alone.
	 * @return the key
	 */
	public String key() {
		return (this.namespace != null) ? this.namespace + "/" + this.name : this.name;
	}

	/**
	 * Describe the object and where it fails in one line, as logs and health show it.
	 * @return the description
	 */
	public String describe() {
		return this.kind + " " + key() + " (uid " + this.uid + ", resourceVersion " + this.resourceVersion + "): "
				+ this.problem + " at " + this.fieldPath;
	}

}
