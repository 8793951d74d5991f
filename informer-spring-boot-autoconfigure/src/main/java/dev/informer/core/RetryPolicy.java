package dev.informer.core;

/**
 * Decides whether an informer retries after an error (with fabric8's exponential backoff,
 * 1 s doubling to 32 s) or gives up.
 */
@FunctionalInterface
public interface RetryPolicy {

	/**
	 * Return whether to retry.
	 * @param started whether the informer had synced before the error
	 * @param ex the error
	 * @return whether to retry
	 */
	boolean shouldRetry(boolean started, Throwable ex);

	/**
	 * Retry everything, except that credentials or RBAC errors before the first sync fail
	 * the start when {@code failOnForbidden} is set.
	 * @param failOnForbidden whether 401 and 403 on the first list fail the start
	 * @return the policy
	 */
	static RetryPolicy standard(boolean failOnForbidden) {
		return (started, ex) -> {
			if (started || !failOnForbidden) {
				return true;
			}
			int code = KubernetesErrors.httpCode(ex);
			return code != 401 && code != 403;
		};
	}

}
