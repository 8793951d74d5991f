package dev.informer.test;

import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;

/**
 * A slow or refusing Lease API for one client: while {@link #hold() held}, every request
 * to {@code /leases} waits before it is sent, as behind an API server that throttles or
 * stalls them; while {@link #refuse() refused}, every such request is sent as an
 * unprivileged user (impersonated), so the server answers 403 Forbidden, as when the
 * Lease rights were revoked; every other request goes at once and unchanged. Add it with
 * {@code KubernetesClientBuilder.withHttpClientBuilderConsumer}; refusing needs a client
 * allowed to impersonate (the admin).
 */
public final class LeaseDelay implements Interceptor {

	/** The name to add it under. */
	public static final String NAME = "lease-delay";

	private final Object released = new Object();

	private final AtomicInteger delayed = new AtomicInteger();

	private boolean holding;

	private volatile boolean refusing;

	private final AtomicInteger refused = new AtomicInteger();

	/**
	 * Hold every Lease request from now on.
	 */
	public void hold() {
		synchronized (this.released) {
			this.holding = true;
		}
	}

	/**
	 * Send the held Lease requests and every later one.
	 */
	public void release() {
		synchronized (this.released) {
			this.holding = false;
			this.released.notifyAll();
		}
	}

	/**
	 * Return whether Lease requests are held.
	 * @return whether held
	 */
	public boolean isHolding() {
		synchronized (this.released) {
			return this.holding;
		}
	}

	/**
	 * Return how many Lease requests waited: a test that holds the Lease API checks that
	 * it really did.
	 * @return the count
	 */
	public int delayed() {
		return this.delayed.get();
	}

	/**
	 * Have the server refuse every Lease request from now on.
	 */
	public void refuse() {
		this.refusing = true;
	}

	/**
	 * Send Lease requests as before {@link #refuse()}.
	 */
	public void accept() {
		this.refusing = false;
	}

	/**
	 * Return how many Lease requests were sent to be refused.
	 * @return the count
	 */
	public int refused() {
		return this.refused.get();
	}

	@Override
	public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
		if (!request.uri().getPath().contains("/leases")) {
			return;
		}
		if (this.refusing) {
			this.refused.incrementAndGet();
			builder.setHeader("Impersonate-User", "informer-lease-refused");
		}
		synchronized (this.released) {
			if (this.holding) {
				this.delayed.incrementAndGet();
			}
			while (this.holding) {
				try {
					this.released.wait();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

}
