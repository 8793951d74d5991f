package dev.informer.runtime.replicas;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Which resource events this replica publishes ({@code informer.replicas.mode}); asked on
 * the delivery thread before each listener an event goes to.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface DeliveryGate {

	/**
	 * Publishes everything: {@link dev.informer.DeliveryMode#ALL}.
	 */
	DeliveryGate ALL = (resource) -> Verdict.PUBLISH;

	/**
	 * Return whether this replica publishes the events of an object now, and if not,
	 * whether it owes them.
	 * @param resource the object
	 * @return the verdict
	 */
	Verdict verdict(HasMetadata resource);

	/**
	 * Return whether this replica publishes the events of an object now.
	 * @param resource the object
	 * @return whether to publish
	 */
	default boolean publishes(HasMetadata resource) {
		return verdict(resource) == Verdict.PUBLISH;
	}

	/**
	 * Return whether this replica's Lease counts as held now, so that it may deliver the
	 * deletes of objects it handed over to another member ({@link HandedOver}).
	 * @return whether held
	 */
	default boolean holdsLease() {
		return true;
	}

	/**
	 * Return whether this replica may deliver now, as replays, the deletes of objects it
	 * published and then handed over to another replica ({@link HandedOver}), which may
	 * never have seen them: a sharded member while its Lease counts as held, a former
	 * leader while it takes part in the group.
	 * @return whether it delivers them
	 */
	default boolean deliversHandedOver() {
		return holdsLease();
	}

	/**
	 * What the gate says of one object's event.
	 */
	enum Verdict {

		/** This replica publishes it. */
		PUBLISH,

		/** Another replica publishes it: it holds the Lease, or the object's range. */
		NOT_OURS,

		/**
		 * This replica would publish it, but its Lease lapsed and no other replica took
		 * over: it owes the event, and replays once its Lease counts as held again.
		 */
		LAPSED

	}

}
