package dev.informer;

import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.jspecify.annotations.Nullable;

/**
 * An informer being prepared, as {@link InformerCustomizer}s see it.
 *
 * @param <T> the resource type
 * @since 0.1.0
 */
public interface InformerSpec<T extends HasMetadata> {

	/**
	 * Return the resolved declaration.
	 * @return the definition
	 */
	InformerDefinition<T> getDefinition();

	/**
	 * Return the informer's name.
	 * @return the name
	 */
	default String getName() {
		return getDefinition().getName();
	}

	/**
	 * Return the namespace this fabric8 informer watches, {@code null} for all namespaces
	 * or a cluster-scoped kind.
	 * @return the namespace or {@code null}
	 */
	@Nullable String getNamespace();

	/**
	 * Return the fabric8 informer, not started yet: add indexers or handlers here. Do not
	 * start, stop or set its exception handler; the starter owns those.
	 * @return the informer
	 */
	SharedIndexInformer<T> getInformer();

	/**
	 * Add a transform that modifies each object in place before it is cached and
	 * published (for example to drop large annotations). Runs on the informer's thread;
	 * must be fast and must not throw.
	 * @param transform the transform
	 */
	void addTransform(Consumer<? super T> transform);

	/**
	 * Return this spec typed to a resource class.
	 * @param <R> the resource type
	 * @param type the resource class the informer must hold
	 * @return this spec
	 * @throws IllegalArgumentException if the informer holds another class
	 */
	@SuppressWarnings("unchecked")
	default <R extends HasMetadata> InformerSpec<R> as(Class<R> type) {
		if (!type.isAssignableFrom(getDefinition().getResourceClass())) {
			throw new IllegalArgumentException("Informer '" + getName() + "' holds "
					+ getDefinition().getResourceClass().getName() + ", not " + type.getName());
		}
		return (InformerSpec<R>) this;
	}

}
