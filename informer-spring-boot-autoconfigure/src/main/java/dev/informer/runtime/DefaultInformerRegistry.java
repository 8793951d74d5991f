package dev.informer.runtime;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.HasMetadata;

import dev.informer.InformerRegistry;
import dev.informer.ResourceCache;
import dev.informer.watch.WatchRegistry;

/**
 * The {@link InformerRegistry} of the runtime: its informers are
 * {@link ResourceInformer}s, which the {@link InformerLifecycle} starts and stops.
 *
 * @since 0.1.0
 */
public class DefaultInformerRegistry implements WatchRegistry {

	private final Map<String, ResourceInformer<?>> informers;

	/**
	 * Create a registry.
	 * @param informers the informers
	 */
	public DefaultInformerRegistry(Collection<? extends ResourceInformer<?>> informers) {
		Map<String, ResourceInformer<?>> byName = new LinkedHashMap<>();
		informers.forEach((informer) -> byName.put(informer.getName(), informer));
		this.informers = Collections.unmodifiableMap(byName);
	}

	/**
	 * Return the names of all informers, in declaration order.
	 * @return the names
	 */
	@Override
	public Set<String> names() {
		return this.informers.keySet();
	}

	/**
	 * Return all informers, in declaration order.
	 * @return the informers
	 */
	@Override
	public Collection<ResourceInformer<?>> informers() {
		return this.informers.values();
	}

	/**
	 * Return an informer.
	 * @param name the informer's name
	 * @return the informer
	 * @throws IllegalArgumentException if there is none of that name
	 */
	@Override
	public ResourceInformer<?> informer(String name) {
		ResourceInformer<?> informer = this.informers.get(name);
		if (informer == null) {
			throw new IllegalArgumentException("No informer named '" + name + "'; informers: " + describe());
		}
		return informer;
	}

	/**
	 * Return an informer's cache.
	 * @param <T> the resource type
	 * @param name the informer's name
	 * @param type the resource class it holds (or a supertype)
	 * @return the cache
	 * @throws IllegalArgumentException if there is no informer of that name, or it holds
	 * another class
	 */
	@Override
	@SuppressWarnings("unchecked")
	public <T extends HasMetadata> ResourceCache<T> cache(String name, Class<T> type) {
		ResourceInformer<?> informer = informer(name);
		Class<?> held = informer.getDefinition().getResourceClass();
		if (!type.isAssignableFrom(held)) {
			throw new IllegalArgumentException("Informer '" + name + "' holds " + held.getName() + ", not "
					+ type.getName() + "; informers: " + describe());
		}
		return (ResourceCache<T>) informer.getCache();
	}

	private String describe() {
		if (this.informers.isEmpty()) {
			return "none declared (see informer.resources)";
		}
		return this.informers.values()
			.stream()
			.map((informer) -> informer.getName() + " (" + informer.getDefinition().getResourceClass().getSimpleName()
					+ ")")
			.collect(Collectors.joining(", "));
	}

}
