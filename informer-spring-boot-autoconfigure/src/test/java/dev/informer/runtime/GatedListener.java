package dev.informer.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.HasMetadata;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;

/**
 * A listener that takes a permit per resource event, so a test decides how far behind it
 * is, and checks what it receives against what it has seen: an add only for an object it
 * does not have, an update whose old state is the one it last saw, a delete only for an
 * object it has; never two calls at once, and never an interrupt.
 */
public final class GatedListener implements ApplicationListener<ApplicationEvent> {

	private final Semaphore permits = new Semaphore(0);

	private final boolean gated;

	private final Map<String, String> view = new ConcurrentHashMap<>();

	private final List<String> violations = new CopyOnWriteArrayList<>();

	private final List<String> received = new CopyOnWriteArrayList<>();

	private final AtomicInteger inside = new AtomicInteger();

	private volatile boolean open;

	public GatedListener(boolean gated) {
		this.gated = gated;
		this.open = !gated;
	}

	/**
	 * Let the listener take {@code count} more events.
	 * @param count the number of events
	 */
	public void allow(int count) {
		this.permits.release(count);
	}

	/**
	 * Let the listener take every event from now on.
	 */
	public void open() {
		this.open = true;
		this.permits.release(Integer.MAX_VALUE / 2);
	}

	/**
	 * Return whether the listener is waiting for a permit with an event in hand.
	 * @return whether waiting
	 */
	public boolean isWaiting() {
		return this.permits.hasQueuedThreads();
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (!(event instanceof ResourceEvent<?> resourceEvent)) {
			return;
		}
		if (this.inside.incrementAndGet() > 1) {
			this.violations.add("called concurrently with itself on " + describe(resourceEvent));
		}
		try {
			if (this.gated && !this.open) {
				this.permits.acquireUninterruptibly();
			}
			if (Thread.currentThread().isInterrupted()) {
				this.violations.add("interrupted while handling " + describe(resourceEvent));
			}
			apply(resourceEvent);
		}
		finally {
			this.inside.decrementAndGet();
		}
	}

	private void apply(ResourceEvent<?> event) {
		HasMetadata resource = event.getResource();
		String key = resource.getMetadata().getName();
		String version = resource.getMetadata().getResourceVersion();
		String seen = this.view.get(key);
		this.received.add(describe(event));
		if (event instanceof ResourceAddedEvent<?>) {
			if (seen != null) {
				this.violations.add("added while present at " + seen + ": " + describe(event));
			}
			this.view.put(key, version);
		}
		else if (event instanceof ResourceUpdatedEvent<?> update) {
			String old = update.getOldResource().getMetadata().getResourceVersion();
			if (!update.isResync() && !old.equals(seen)) {
				this.violations.add("old state " + old + " but last seen " + seen + ": " + describe(event));
			}
			this.view.put(key, version);
		}
		else if (event instanceof ResourceDeletedEvent<?>) {
			if (seen == null) {
				this.violations.add("deleted while absent: " + describe(event));
			}
			this.view.remove(key);
		}
	}

	private static String describe(ResourceEvent<?> event) {
		return event.getClass().getSimpleName().replace("Resource", "").replace("Event", "") + " "
				+ event.getResource().getMetadata().getName() + "@"
				+ event.getResource().getMetadata().getResourceVersion();
	}

	public Map<String, String> view() {
		return Map.copyOf(this.view);
	}

	public List<String> violations() {
		return new ArrayList<>(this.violations);
	}

	public List<String> received() {
		return new ArrayList<>(this.received);
	}

}
