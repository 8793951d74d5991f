package dev.informer.test;

import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;

/**
 * A slow Lease API for one client: while {@link #hold() held}, every request to
 * {@code /leases} waits before it is sent, as behind an API server that throttles or
 * stalls them; every other request goes at once. Add it with
 * {@code KubernetesClientBuilder.withHttpClientBuilderConsumer}.
 */
public final class LeaseDelay implements Interceptor {

	/** The name to add it under. */
	public static final String NAME = "lease-delay";

	private final Object released = new Object();

	private final AtomicInteger delayed = new AtomicInteger();

	private boolean holding;

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

	@Override
	public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
		if (!request.uri().getPath().contains("/leases")) {
			return;
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
