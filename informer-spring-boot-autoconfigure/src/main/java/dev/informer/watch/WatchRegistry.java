package dev.informer.watch;

import java.util.Collection;

import dev.informer.InformerRegistry;

/**
 * An {@link InformerRegistry} whose informers expose the read model of their watches.
 */
public interface WatchRegistry extends InformerRegistry {

	@Override
	Collection<? extends WatchedInformer<?>> informers();

	@Override
	WatchedInformer<?> informer(String name);

}
