package dev.informer.watch;

import java.util.Collection;

import dev.informer.InformerRegistry;

/**
 * An {@link InformerRegistry} whose informers expose the read model of their watches.
 *
 * @since 0.1.0
 */
public interface WatchRegistry extends InformerRegistry {

	@Override
	Collection<? extends WatchedInformer<?>> informers();

	@Override
	WatchedInformer<?> informer(String name);

}
