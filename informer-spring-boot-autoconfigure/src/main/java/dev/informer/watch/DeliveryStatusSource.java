package dev.informer.watch;

/**
 * Where health, metrics and the endpoint read the state of delivery across replicas.
 */
@FunctionalInterface
public interface DeliveryStatusSource {

	/**
	 * Return the state as of now, without any request to the API server.
	 * @return the snapshot
	 */
	DeliverySnapshot snapshot();

}
