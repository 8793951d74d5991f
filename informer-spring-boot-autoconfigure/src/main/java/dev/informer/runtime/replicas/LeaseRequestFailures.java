package dev.informer.runtime.replicas;

import java.time.Clock;
import java.time.Duration;

import io.fabric8.kubernetes.client.KubernetesClientException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.InformerStartupException;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.WatchError;

/**
 * The failed requests of one Lease, told apart as logs and health need them: a
 * <em>refusal</em>, which no retry cures (a 4xx other than a timeout, a conflict or
 * throttling: Forbidden, Invalid, a missing namespace on create), and transient failures.
 * fabric8's elector would log every failed attempt as "retrying..." forever (its logger
 * is off by default, see {@code InformerLoggingDefaults}); this logs the first failure of
 * each kind once, with the API server's own message, and when requests succeed again. A
 * refusal is kept, for health, until a request of the same kind (read, or write)
 * succeeds.
 */
final class LeaseRequestFailures {

	private static final Log logger = LogFactory.getLog(LeaseRequestFailures.class);

	private final String group;

	private final String lease;

	private final Duration retryPeriod;

	private final Clock clock;

	private volatile @Nullable WatchError readRefusal;

	private volatile @Nullable WatchError writeRefusal;

	private @Nullable String failingRead;

	private @Nullable String failingWrite;

	LeaseRequestFailures(String group, String lease, Duration retryPeriod, Clock clock) {
		this.group = group;
		this.lease = lease;
		this.retryPeriod = retryPeriod;
		this.clock = clock;
	}

	/**
	 * Return whether retrying a request that failed so cannot help.
	 * @param verb {@code get}, {@code create} or {@code update}
	 * @param ex the failure
	 * @return whether it is a refusal
	 */
	static boolean isRefusal(String verb, KubernetesClientException ex) {
		int code = ex.getCode();
		if (code == 404) {
			// no such namespace; a Lease deleted between a read and its update is retried
			return verb.equals("create");
		}
		return code >= 400 && code < 500 && code != 408 && code != 409 && code != 429;
	}

	/**
	 * Note a failed request, logging it if it is the first of its kind.
	 * @param verb {@code get}, {@code create} or {@code update}
	 * @param ex the failure
	 * @return whether it is a refusal
	 */
	synchronized boolean failed(String verb, KubernetesClientException ex) {
		boolean refused = isRefusal(verb, ex);
		boolean write = !verb.equals("get");
		String reason = KubernetesErrors.reason(ex);
		String kind = verb + " " + ex.getCode() + " " + reason;
		String cause = "HTTP " + ex.getCode() + " " + reason + ": " + KubernetesErrors.serverMessage(ex);
		if (refused) {
			WatchError refusal = new WatchError(this.clock.instant(), ex.getCode(), reason,
					KubernetesErrors.serverMessage(ex));
			if (write) {
				this.writeRefusal = refusal;
			}
			else {
				this.readRefusal = refusal;
			}
		}
		if (kind.equals(write ? this.failingWrite : this.failingRead)) {
			return refused;
		}
		if (write) {
			this.failingWrite = kind;
		}
		else {
			this.failingRead = kind;
		}
		if (refused) {
			logger.error("Delivery group '" + this.group + "': the API server refuses to " + verb + " Lease "
					+ this.lease + " (" + cause + "); no retry can fix this, and until it is fixed this replica "
					+ "publishes nothing through this Lease (trying again every " + this.retryPeriod.toMillis()
					+ " ms)");
		}
		else {
			logger.warn("Delivery group '" + this.group + "': could not " + verb + " Lease " + this.lease + " (" + cause
					+ "); retrying every " + this.retryPeriod.toMillis() + " ms");
		}
		return refused;
	}

	/**
	 * Note a successful request.
	 * @param verb {@code get}, {@code create} or {@code update}
	 */
	synchronized void succeeded(String verb) {
		boolean write = !verb.equals("get");
		String failing = write ? this.failingWrite : this.failingRead;
		if (write) {
			this.writeRefusal = null;
			this.failingWrite = null;
		}
		else {
			this.readRefusal = null;
			this.failingRead = null;
		}
		if (failing != null) {
			logger.info("Delivery group '" + this.group + "': Lease " + this.lease + ": " + verb + " succeeds again");
		}
	}

	/**
	 * Explain a refusal in the first round that is neither a missing RBAC rule nor a
	 * missing namespace: the API server, or an admission policy, finds the Lease invalid.
	 * @param group the delivery group
	 * @param refused the refusal
	 * @return the startup failure
	 */
	static InformerStartupException startupFailure(String group, LeaseRefusedException refused) {
		KubernetesClientException cause = (KubernetesClientException) refused.getCause();
		return new InformerStartupException(
				"Delivery group '" + group + "': the API server refuses to " + refused.verb() + " Lease "
						+ refused.lease() + " (HTTP " + refused.code() + " " + KubernetesErrors.reason(cause) + "): "
						+ KubernetesErrors.serverMessage(cause),
				"Retrying cannot fix this. The Lease is made of informer.replicas.group (its name, and the label "
						+ DeliveryOptions.GROUP_LABEL + " of a sharded member's Lease), informer.replicas.identity "
						+ "(its holder, and part of a member's name) and informer.replicas.lease-duration (in whole "
						+ "seconds): correct the value the message names, or the admission policy (webhook or "
						+ "ValidatingAdmissionPolicy) that refuses the Lease",
				cause);
	}

	/**
	 * Return the refusal of the last read, else of the last write, if it was one.
	 * @return the refusal, {@code null} when the last requests were not refused
	 */
	@Nullable WatchError refusal() {
		WatchError read = this.readRefusal;
		return (read != null) ? read : this.writeRefusal;
	}

}
