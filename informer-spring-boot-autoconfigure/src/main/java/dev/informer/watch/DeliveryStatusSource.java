package dev.informer.watch;

/**
 * Where health, metrics and the endpoint read the state of delivery across replicas.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface DeliveryStatusSource {

	/**
	 * Return the state as of now, without any request to the API server.
	 * @return the snapshot
	 */
	DeliverySnapshot snapshot();

	/**
	 * Return how many cached objects this replica publishes: those of {@code leader}
	 * informers while it leads, and the owned ones of {@code sharded} informers. May
	 * count the caches, so it is read by metrics scrapes, not for every event.
	 * @return the number of owned objects, 0 when the source does not count them
	 */
	default long ownedObjects() {
		return 0;
	}

	/**
	 * Return how many deletes the replica gates keep as tombstones, to deliver them
	 * should this replica take their objects over.
	 * @return the number of tombstones, 0 when the source does not count them
	 */
	default long tombstones() {
		return 0;
	}

	/**
	 * Return how many tombstones a bound (age or count) dropped before this replica took
	 * their objects over.
	 * @return the number dropped, 0 when the source does not count them
	 */
	default long tombstonesDropped() {
		return 0;
	}

	/**
	 * Return how many objects' last-seen states the replica gates keep through a Lease
	 * lapse.
	 * @return the number of states, 0 when the source does not count them
	 */
	default long missedChanges() {
		return 0;
	}

	/**
	 * Return how many times a watch's record of a lapse hit its bound and fell back to
	 * replaying every object.
	 * @return the number of overflows, 0 when the source does not count them
	 */
	default long missedOverflows() {
		return 0;
	}

}
