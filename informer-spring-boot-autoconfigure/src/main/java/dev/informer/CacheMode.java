package dev.informer;

/**
 * What an informer lists, watches and caches of each object.
 *
 * @see InformerDeclaration#getCache()
 * @since 0.1.0
 */
public enum CacheMode {

	/**
	 * The whole object, deserialized into its model class (or
	 * {@link io.fabric8.kubernetes.api.model.GenericKubernetesResource}).
	 */
	FULL,

	/**
	 * Only its metadata (name, namespace, labels, annotations, owner references,
	 * resourceVersion, deletion): the API server sends each object as a
	 * {@link io.fabric8.kubernetes.api.model.PartialObjectMetadata}, which is what events
	 * and the cache carry. Much less memory and decoding for listeners that need nothing
	 * else.
	 */
	METADATA

}
