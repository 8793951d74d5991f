package dev.informer;

/**
 * Callback to adjust each fabric8 informer before it starts: add indexers, event handlers
 * or item transforms, without replacing the auto-configuration. Customizer beans are
 * applied in {@link org.springframework.core.annotation.Order order}, once per informer
 * and namespace.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface InformerCustomizer {

	/**
	 * Customize an informer that has not started yet.
	 * @param informer the informer, its declaration and namespace
	 */
	void customize(InformerSpec<?> informer);

}
