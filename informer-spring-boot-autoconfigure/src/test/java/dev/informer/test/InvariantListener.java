package dev.informer.test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.springframework.context.event.EventListener;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;

/**
 * Applies every resource event it receives to an empty map and records each violation of
 * the starter's delivery invariant: an add for an object already present, an update or
 * delete for one absent, an update that changes nothing, or events of one object out of
 * resourceVersion order.
 */
public class InvariantListener {

	private final Map<String, String> applied = new HashMap<>();

	private final Map<String, Long> lastVersion = new HashMap<>();

	private final List<String> violations = new ArrayList<>();

	private final Map<String, List<String>> history = new HashMap<>();

	private int events;

	@EventListener
	synchronized void on(ResourceEvent<?> event) {
		this.events++;
		String key = event.getNamespace() + "/" + event.getName();
		String version = event.getResourceVersion();
		List<String> seen = this.history.computeIfAbsent(key, (ignored) -> new ArrayList<>());
		int violationsBefore = this.violations.size();
		if (event instanceof ResourceAddedEvent<?>) {
			if (this.applied.containsKey(key)) {
				this.violations.add("added again: " + event);
			}
			checkOrder(key, event, false);
			this.applied.put(key, version);
		}
		else if (event instanceof ResourceUpdatedEvent<?> updated) {
			if (!this.applied.containsKey(key)) {
				this.violations.add("updated while absent: " + event);
			}
			if (updated.isResync()) {
				this.violations.add("unchanged object delivered: " + event);
			}
			checkOrder(key, event, false);
			this.applied.put(key, version);
		}
		else if (event instanceof ResourceDeletedEvent<?> deleted) {
			if (this.applied.remove(key) == null) {
				this.violations.add("deleted while absent: " + event);
			}
			if (!deleted.isFinalStateUnknown()) {
				// a delete may carry the object's last state (same resourceVersion) or a newer one
				checkOrder(key, event, true);
			}
		}
		// a violation names what came before it for the same object
		for (int i = violationsBefore; i < this.violations.size(); i++) {
			this.violations.set(i, this.violations.get(i) + " (earlier for this object: " + seen + ")");
		}
		seen.add(event.getClass().getSimpleName().replace("Resource", "").replace("Event", "") + " "
				+ version + (((event instanceof ResourceDeletedEvent<?> deleted) && deleted.isFinalStateUnknown())
						? " (final state unknown)" : ""));
	}

	private void checkOrder(String key, ResourceEvent<?> event, boolean mayRepeat) {
		long version = Long.parseLong(event.getResourceVersion());
		Long previous = this.lastVersion.put(key, version);
		if (previous != null && (version < previous || (version == previous && !mayRepeat))) {
			this.violations.add("out of order (after " + previous + "): " + event);
		}
	}

	public synchronized Map<String, String> applied() {
		return new HashMap<>(this.applied);
	}

	public synchronized List<String> violations() {
		return new ArrayList<>(this.violations);
	}

	public synchronized int eventCount() {
		return this.events;
	}

}
