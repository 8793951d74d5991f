package dev.informer.runtime;

import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.runtime.kinds.UndecodableObjects;
import dev.informer.watch.UndecodableObject;

/**
 * What one fabric8 informer's serialization says about objects that do not decode:
 * recorded in the watch's status (health, the endpoint and {@code
 * informer.objects.undecodable} name them) and logged once per object version, at WARN,
 * never with their content. Bound to its generation once that exists (the serialization
 * is created with the fabric8 informer, before it).
 *
 * @param <T> the resource type
 */
final class SkippedObjects<T extends HasMetadata> implements UndecodableObjects {

	private static final Log logger = LogFactory.getLog(SkippedObjects.class);

	private final WatchContext<T> context;

	// the deletes handed on for objects that stopped decoding, until delivered: each
	// instance fabric8 was handed to the last decoded state it stands for
	private final Map<HasMetadata, HasMetadata> stoppedDecoding = Collections.synchronizedMap(new IdentityHashMap<>());

	private volatile Function<String, @Nullable T> cache = (key) -> null;

	private volatile BooleanSupplier active = () -> false;

	SkippedObjects(WatchContext<T> context) {
		this.context = context;
	}

	/**
	 * Bind to the generation whose informer decodes through this.
	 * @param cache the generation's cache by key
	 * @param active whether the generation is still its watch's current one
	 */
	void bind(Function<String, @Nullable T> cache, BooleanSupplier active) {
		this.cache = cache;
		this.active = active;
	}

	@Override
	public void skipped(UndecodableObject object) {
		if (this.active.getAsBoolean() && this.context.status().observed().undecodable().skipped(object)) {
			log(object);
		}
	}

	@Override
	public void deleted(String key) {
		if (this.active.getAsBoolean()) {
			this.context.status().observed().undecodable().deleted(key);
		}
	}

	@Override
	public void listed(Collection<UndecodableObject> skipped) {
		if (this.active.getAsBoolean()) {
			this.context.status().observed().undecodable().listed(skipped).forEach(this::log);
		}
	}

	@Override
	public @Nullable HasMetadata cached(String key) {
		return this.active.getAsBoolean() ? this.cache.apply(key) : null;
	}

	@Override
	public void stoppedDecoding(HasMetadata handedOn, HasMetadata lastDecoded) {
		this.stoppedDecoding.put(handedOn, lastDecoded);
	}

	/**
	 * Return the last decoded state a delete stands for, if it is the one handed on for
	 * an object that stopped decoding, and forget it.
	 * @param resource the deleted object fabric8 notifies
	 * @return the object's last decoded state, as listeners saw it, or {@code null} for
	 * any other delete
	 */
	@SuppressWarnings("unchecked")
	@Nullable T handedOnAsDeleted(T resource) {
		return this.stoppedDecoding.isEmpty() ? null : (T) this.stoppedDecoding.remove(resource);
	}

	/**
	 * Record that a version of an object decoded and was handed on.
	 * @param resource the object
	 */
	void decoded(T resource) {
		this.context.status()
			.observed()
			.undecodable()
			.decoded(resource.getMetadata().getNamespace(), resource.getMetadata().getName(),
					resource.getMetadata().getResourceVersion());
	}

	private void log(UndecodableObject object) {
		logger.warn("Informer '" + this.context.name() + "'" + this.context.where() + ": skipped " + object.describe()
				+ "; it is neither cached nor delivered until a version of it decodes");
	}

}
