package dev.informer.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import org.assertj.core.api.SoftAssertions;
import org.jspecify.annotations.Nullable;
import org.awaitility.core.ConditionTimeoutException;

import org.springframework.context.event.EventListener;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;

import static org.awaitility.Awaitility.await;

/**
 * Applies every resource event it receives to an empty map and records each violation of
 * the starter's delivery invariant: an add for an object already present, an update or
 * delete for one absent, an update that changes nothing, an update whose old state (or a
 * delete with final state unknown whose state) is not the state this listener last saw of
 * the object, or events of one object out of resourceVersion order.
 * <p>
 * It can be slow, as real listeners are: each event then takes a seeded random time (its
 * simulated work, spent on the delivery thread), so that changes queue up behind it and
 * relists, 410s and replacements happen while it is behind.
 * <p>
 * A delete flagged as having left a namespace selection must carry the state this
 * listener last saw; the object may come back later (its namespace joins again) as an
 * add.
 * <p>
 * In a context with several informers, give each its own listener with
 * {@link #forInformer}: keys are namespace and name, which several kinds share.
 */
public class InvariantListener {

	private final Random random;

	private final long minDelayNanos;

	private final long maxDelayNanos;

	private @Nullable String informer;

	private final Map<String, String> applied = new HashMap<>();

	private final Map<String, Long> lastVersion = new HashMap<>();

	private final List<String> violations = new ArrayList<>();

	private final Map<String, List<String>> history = new HashMap<>();

	private int events;

	private long lastEventNanos = System.nanoTime();

	/**
	 * Create a listener that applies events at once.
	 */
	public InvariantListener() {
		this(0, Duration.ZERO, Duration.ZERO);
	}

	/**
	 * Create a listener that spends a random time, up to {@code maxDelay}, on each event.
	 * @param seed the seed of the delays
	 * @param maxDelay the longest time an event takes
	 */
	public InvariantListener(long seed, Duration maxDelay) {
		this(seed, Duration.ZERO, maxDelay);
	}

	/**
	 * Create a listener that spends a random time between {@code minDelay} and
	 * {@code maxDelay} on each event.
	 * @param seed the seed of the delays
	 * @param minDelay the shortest time an event takes
	 * @param maxDelay the longest time an event takes
	 */
	public InvariantListener(long seed, Duration minDelay, Duration maxDelay) {
		this.random = new Random(seed);
		this.minDelayNanos = minDelay.toNanos();
		this.maxDelayNanos = maxDelay.toNanos();
	}

	/**
	 * Apply only the events of one informer.
	 * @param name the informer's name
	 * @return this listener
	 */
	public InvariantListener forInformer(String name) {
		this.informer = name;
		return this;
	}

	@EventListener
	void on(ResourceEvent<?> event) {
		if (this.informer != null && !this.informer.equals(event.getInformerName())) {
			return;
		}
		if (this.maxDelayNanos > 0) {
			// the listener's work; fabric8 queues later changes meanwhile
			LockSupport.parkNanos(
					this.minDelayNanos + (long) (this.random.nextDouble() * (this.maxDelayNanos - this.minDelayNanos)));
		}
		apply(event);
	}

	private synchronized void apply(ResourceEvent<?> event) {
		this.events++;
		this.lastEventNanos = System.nanoTime();
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
			String old = updated.getOldResource().getMetadata().getResourceVersion();
			if (this.applied.containsKey(key) && !Objects.equals(old, this.applied.get(key))) {
				this.violations.add("updated from " + old + ", a state this listener did not last see ("
						+ this.applied.get(key) + "): " + event);
			}
			checkOrder(key, event, false);
			this.applied.put(key, version);
		}
		else if (event instanceof ResourceDeletedEvent<?> deleted) {
			String last = this.applied.remove(key);
			if (last == null) {
				this.violations.add("deleted while absent: " + event);
			}
			else if (deleted.isFinalStateUnknown() && !last.equals(version)) {
				// the last state known is the one listeners saw
				this.violations.add("deleted (final state unknown) as " + version
						+ ", a state this listener did not last see (" + last + "): " + event);
			}
			else if (deleted.isLeftSelection() && !last.equals(version)) {
				// its namespace left the selection: the state listeners saw leaves
				this.violations.add("left the selection as " + version + ", a state this listener did not last see ("
						+ last + "): " + event);
			}
			if (deleted.isLeftSelection()) {
				// it may come back, from its namespace joining again, in any later state
				this.lastVersion.remove(key);
			}
			else if (!deleted.isFinalStateUnknown()) {
				// a delete may carry the object's last state
				// (same resourceVersion) or a newer one
				checkOrder(key, event, true);
			}
		}
		// a violation names what came before it for the same object
		for (int i = violationsBefore; i < this.violations.size(); i++) {
			this.violations.set(i, this.violations.get(i) + " (earlier for this object: "
					+ ((seen.size() > 10) ? "..., " + seen.subList(seen.size() - 10, seen.size()) : seen) + ")");
		}
		seen.add(event.getClass().getSimpleName().replace("Resource", "").replace("Event", "") + " " + version
				+ (((event instanceof ResourceDeletedEvent<?> deleted) && deleted.isFinalStateUnknown())
						? " (final state unknown)" : "")
				+ (((event instanceof ResourceDeletedEvent<?> deleted) && deleted.isLeftSelection())
						? " (left the selection)" : ""));
	}

	private void checkOrder(String key, ResourceEvent<?> event, boolean mayRepeat) {
		long version = Long.parseLong(event.getResourceVersion());
		Long previous = this.lastVersion.put(key, version);
		if (previous != null && (version < previous || (version == previous && !mayRepeat))) {
			this.violations.add("out of order (after " + previous + "): " + event);
		}
	}

	/**
	 * Wait until this listener's view equals the server's state, then check that no event
	 * violated the invariant. Once a violation has happened, it waits only until the
	 * listener has been idle for a while, so that the failure names both the violations
	 * and each object on which the view and the server still differ (for example a delete
	 * never delivered).
	 * @param serverState the server's state (key to resourceVersion), read on each poll
	 * @param seed how to rerun the test, for the failure message
	 * @param atMost how long the listener may take to catch up
	 */
	public void awaitReplayOf(Supplier<Map<String, String>> serverState, String seed, Duration atMost) {
		awaitQuiet(serverState, atMost);
		List<String> differences = differences(applied(), serverState.get());
		SoftAssertions softly = new SoftAssertions();
		softly.assertThat(firstViolations()).as(seed + ": violations of the delivery invariant").isEmpty();
		softly.assertThat(differences)
			.as(seed + ": objects on which the listener's view (" + eventCount()
					+ " events applied) differs from the server")
			.isEmpty();
		softly.assertAll();
	}

	/**
	 * Wait until this listener's view equals the server's state or, once the invariant
	 * has been violated, until the listener has been idle for a while; at most
	 * {@code atMost}.
	 * @param serverState the server's state (key to resourceVersion), read on each poll
	 * @param atMost how long to wait at most
	 */
	public void awaitQuiet(Supplier<Map<String, String>> serverState, Duration atMost) {
		try {
			await().atMost(atMost)
				.pollInterval(Duration.ofMillis(250))
				.until(() -> hasViolations() ? isIdleFor(Duration.ofSeconds(2))
						: differences(applied(), serverState.get()).isEmpty());
		}
		catch (ConditionTimeoutException ex) {
			// the caller's assertions say what differs
		}
	}

	private synchronized List<String> firstViolations() {
		if (this.violations.size() <= 20) {
			return new ArrayList<>(this.violations);
		}
		List<String> first = new ArrayList<>(this.violations.subList(0, 20));
		first.add("... " + (this.violations.size() - 20) + " more");
		return first;
	}

	private synchronized boolean hasViolations() {
		return !this.violations.isEmpty();
	}

	private synchronized boolean isIdleFor(Duration quiet) {
		return System.nanoTime() - this.lastEventNanos > quiet.toNanos();
	}

	private static List<String> differences(Map<String, String> view, Map<String, String> server) {
		Set<String> keys = new TreeSet<>(view.keySet());
		keys.addAll(server.keySet());
		List<String> differences = new ArrayList<>();
		for (String key : keys) {
			String seen = view.get(key);
			String actual = server.get(key);
			if (seen == null) {
				differences.add(key + ": absent for the listener, " + actual + " on the server (add not delivered)");
			}
			else if (actual == null) {
				differences.add(key + ": " + seen + " for the listener, deleted on the server (delete not delivered)");
			}
			else if (!seen.equals(actual)) {
				differences.add(key + ": " + seen + " for the listener, " + actual + " on the server");
			}
		}
		return differences;
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
