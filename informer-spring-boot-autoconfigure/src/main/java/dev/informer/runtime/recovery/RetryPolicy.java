package dev.informer.runtime.recovery;

import dev.informer.InformerDeclaration;
import dev.informer.watch.KubernetesErrors;

/**
 * Decides whether an informer retries after an error (with fabric8's exponential backoff,
 * 1 s doubling to 32 s) or gives up.
 *
 * @since 0.1.0
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
	 * Retry everything after the first sync. Before it, give up on a request the API
	 * server rejects as malformed (HTTP 400, for example a field it cannot select by),
	 * which no retry can fix, and on credentials or RBAC errors when
	 * {@code failOnForbidden} is set.
	 * @param failOnForbidden whether 401 and 403 on the first list fail the start
	 * @return the policy
	 */
	static RetryPolicy standard(boolean failOnForbidden) {
		return (started, ex) -> {
			if (started) {
				return true;
			}
			int code = KubernetesErrors.httpCode(ex);
			if (code == 400) {
				return false;
			}
			return !failOnForbidden || (code != 401 && code != 403);
		};
	}

	/**
	 * Apply {@link #standard(boolean)} to one informer, logging an error that names the
	 * declared selectors and the server's message when it gives up on a rejected request.
	 * @param failOnForbidden whether 401 and 403 on the first list fail the start
	 * @param declaration the informer's declaration
	 * @return the policy
	 */
	static RetryPolicy standard(boolean failOnForbidden, InformerDeclaration declaration) {
		return new BadRequestExplainer(standard(failOnForbidden), declaration);
	}

}
