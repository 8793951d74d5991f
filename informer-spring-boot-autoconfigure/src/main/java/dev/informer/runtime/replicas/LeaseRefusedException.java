package dev.informer.runtime.replicas;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The API server refused a request on the Lease in a way retrying cannot cure.
 */
final class LeaseRefusedException extends RuntimeException {

	private final String verb;

	private final String lease;

	LeaseRefusedException(String verb, String lease, KubernetesClientException cause) {
		super(cause.getMessage(), cause);
		this.verb = verb;
		this.lease = lease;
	}

	String verb() {
		return this.verb;
	}

	/**
	 * Return the Lease refused, as {@code namespace/name}.
	 */
	String lease() {
		return this.lease;
	}

	int code() {
		return ((KubernetesClientException) getCause()).getCode();
	}

}
