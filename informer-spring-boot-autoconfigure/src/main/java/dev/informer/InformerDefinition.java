package dev.informer;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * An {@link InformerDeclaration} resolved against the API server: the Java class, the
 * plural resource name and the scope.
 *
 * @param <T> the resource class
 * @since 0.1.0
 */
public final class InformerDefinition<T extends HasMetadata> {

	private final InformerDeclaration declaration;

	private final Class<T> resourceClass;

	private final String plural;

	private final boolean namespaced;

	/**
	 * Create a definition.
	 * @param declaration the declaration
	 * @param resourceClass the class resources are deserialized into
	 * @param plural the plural resource name, for example {@code configmaps}
	 * @param namespaced whether the kind is namespaced
	 */
	public InformerDefinition(InformerDeclaration declaration, Class<T> resourceClass, String plural,
			boolean namespaced) {
		this.declaration = declaration;
		this.resourceClass = resourceClass;
		this.plural = plural;
		this.namespaced = namespaced;
	}

	/**
	 * Return the declaration.
	 * @return the declaration
	 */
	public InformerDeclaration getDeclaration() {
		return this.declaration;
	}

	/**
	 * Return the informer's name.
	 * @return the name
	 */
	public String getName() {
		return this.declaration.getName();
	}

	/**
	 * Return the class resources are deserialized into.
	 * @return the class
	 */
	public Class<T> getResourceClass() {
		return this.resourceClass;
	}

	/**
	 * Return the plural resource name.
	 * @return the plural
	 */
	public String getPlural() {
		return this.plural;
	}

	/**
	 * Return whether the kind is namespaced.
	 * @return whether namespaced
	 */
	public boolean isNamespaced() {
		return this.namespaced;
	}

	/**
	 * Return whether the resources are watched without a Java class.
	 * @return whether generic
	 */
	public boolean isGeneric() {
		return this.resourceClass == GenericKubernetesResource.class;
	}

	@Override
	public String toString() {
		return this.declaration.getName() + " (" + this.declaration.getApiVersion() + " " + this.declaration.getKind()
				+ ")";
	}

}
