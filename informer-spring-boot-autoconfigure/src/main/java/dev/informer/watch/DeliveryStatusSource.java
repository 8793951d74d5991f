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

}
