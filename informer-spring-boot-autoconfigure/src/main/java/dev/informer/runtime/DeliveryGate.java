package dev.informer.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Which resource events this replica publishes ({@code informer.delivery.mode}); asked on
 * the delivery thread for every event, just before its listeners run.
 */
@FunctionalInterface
interface DeliveryGate {

	/**
	 * Publishes everything: {@link dev.informer.DeliveryMode#ALL}.
	 */
	DeliveryGate ALL = (resource) -> true;

	/**
	 * Return whether this replica publishes the events of an object now.
	 * @param resource the object
	 * @return whether to publish
	 */
	boolean publishes(HasMetadata resource);

}
