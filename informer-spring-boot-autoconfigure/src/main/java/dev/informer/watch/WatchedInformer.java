package dev.informer.watch;

import java.util.List;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

import dev.informer.Informer;

/**
 * An {@link Informer} with the read model of its watches, for health, metrics and the
 * {@code informers} endpoint.
 *
 * @param <T> the resource type
 * @since 0.1.0
 */
public interface WatchedInformer<T extends HasMetadata> extends Informer<T> {

	/**
	 * Return the informer's watches: one per declared namespace, in declaration order, or
	 * one for all namespaces (or a cluster-scoped kind), or with a
	 * {@code namespace-selector} one per namespace currently selected, in the order they
	 * joined.
	 * @return the watches
	 */
	List<Watch> getWatches();

	/**
	 * Return the watch on Namespaces that chooses this informer's namespaces when it is
	 * declared with a {@code namespace-selector}, shared by every informer declared with
	 * the same selector. Its namespace is {@code null} and its cache size is the number
	 * of namespaces matching.
	 * @return the watch, {@code null} without a {@code namespace-selector} or before the
	 * informer first started
	 */
	default @Nullable Watch getNamespaceWatch() {
		return null;
	}

	/**
	 * Add an observer of delivered events. An observer that throws is logged and does not
	 * keep other observers from the event.
	 * @param observer the observer
	 */
	void addDeliveryObserver(DeliveryObserver observer);

	/**
	 * Add an observer of watches added and removed at runtime (namespaces joining and
	 * leaving a {@code namespace-selector}). Informers whose watches are fixed never tell
	 * it anything.
	 * @param observer the observer
	 */
	default void addWatchSetObserver(WatchSetObserver observer) {
	}

}
