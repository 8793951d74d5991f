package dev.informer.test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
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
 * One listener as the delivery contract expects it, checking every event as it arrives:
 * an add for an object already present (unless it is a replay, which may repeat what was
 * published before), an update or delete for one absent, an update that changes nothing,
 * an update whose old state (or a delete with final state unknown whose state, unless the
 * informer filters with {@code on-change}: {@link #filtering()}) is not the state this
 * listener last saw of the object, an update that carries another uid than the one this
 * listener holds (an object deleted and created again is a delete and an add), or events
 * of one object out of resourceVersion order (a replayed delete of another uid than the
 * one this listener holds under the name is an older object's, delivered at least once,
 * and is not ordered against it). It records every event into a {@link ContractChecker},
 * its own or the one shared by the replicas of a group, which folds them and compares the
 * result with the server.
 * <p>
 * It can be slow, as real listeners are: each event then takes a seeded random time (its
 * simulated work, spent on the delivery thread), so that changes queue up behind it and
 * relists, 410s and replacements happen while it is behind.
 * <p>
 * A delete flagged as having left a namespace selection must carry the state this
 * listener last saw; the object may come back later (its namespace joins again) as an
 * add.
 * <p>
 * A listener of one replica of a group ({@link #withPeers()}) is not given every event:
 * another replica may deliver in its place, so presence is not checked (an add of an
 * object it holds, an update or delete of one it lacks), only order, old states and uids
 * of the objects it holds; the group's view is the checker's.
 * <p>
 * In a context with several informers, give each its own listener with
 * {@link #forInformer}: keys are namespace and name, which several kinds share.
 */
public class InvariantListener {

	private final Random random;

	private final long minDelayNanos;

	private final long maxDelayNanos;

	private @Nullable String informer;

	private ContractChecker checker = ContractChecker.byResourceVersion();

	private String replica = "listener";

	private boolean peers;

	private boolean filtering;

	private Runnable work = () -> {
	};

	/** What this listener last saw of each object: key to resourceVersion and uid. */
	private final Map<String, Seen> seen = new HashMap<>();

	private final Map<String, Long> lastVersion = new HashMap<>();

	// the uid of the last event of each name, a delete's included
	private final Map<String, String> lastUid = new HashMap<>();

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

	/**
	 * Record into a checker shared with other listeners (the replicas of a group).
	 * @param checker the checker
	 * @param replica this listener's name in it
	 * @return this listener
	 */
	public InvariantListener reportingTo(ContractChecker checker, String replica) {
		this.checker = checker;
		this.replica = replica;
		return this;
	}

	/**
	 * Check this listener as one replica of a group whose other replicas may deliver what
	 * it does not: no presence checks.
	 * @return this listener
	 */
	public InvariantListener withPeers() {
		this.peers = true;
		return this;
	}

	/**
	 * Check a listener of an informer with {@code on-change}: a delete with final state
	 * unknown carries the last cached state (docs/events.md), which updates held back
	 * moved past the state this listener last saw, so that state is not checked.
	 * @return this listener
	 */
	public InvariantListener filtering() {
		this.filtering = true;
		return this;
	}

	/**
	 * Run more work on each event, before it is applied: a test's way to stall the
	 * listener for a while.
	 * @param work the work
	 * @return this listener
	 */
	public InvariantListener withWork(Runnable work) {
		this.work = work;
		return this;
	}

	/**
	 * Return the checker this listener records into.
	 * @return the checker
	 */
	public ContractChecker checker() {
		return this.checker;
	}

	@EventListener
	void on(ResourceEvent<?> event) {
		if (this.informer != null && !this.informer.equals(event.getInformerName())) {
			return;
		}
		Instant called = Instant.now();
		if (this.maxDelayNanos > 0) {
			// the listener's work; fabric8 queues later changes meanwhile
			LockSupport.parkNanos(
					this.minDelayNanos + (long) (this.random.nextDouble() * (this.maxDelayNanos - this.minDelayNanos)));
		}
		this.work.run();
		apply(event);
		this.checker.record(this.replica, event, called);
	}

	private synchronized void apply(ResourceEvent<?> event) {
		this.events++;
		this.lastEventNanos = System.nanoTime();
		String key = event.getNamespace() + "/" + event.getName();
		String version = event.getResourceVersion();
		String uid = event.getResource().getMetadata().getUid();
		List<String> seen = this.history.computeIfAbsent(key, (ignored) -> new ArrayList<>());
		int violationsBefore = this.violations.size();
		Seen last = this.seen.get(key);
		String lastUidOfName = (uid != null) ? this.lastUid.put(key, uid) : this.lastUid.get(key);
		if (event instanceof ResourceAddedEvent<?> added) {
			if (last != null && !added.isReplay() && !this.peers) {
				this.violations.add("added again: " + event);
			}
			checkOrder(key, event, added.isReplay());
			this.seen.put(key, new Seen(version, uid));
		}
		else if (event instanceof ResourceUpdatedEvent<?> updated) {
			if (last == null && !this.peers) {
				this.violations.add("updated while absent: " + event);
			}
			if (updated.isResync()) {
				this.violations.add("unchanged object delivered: " + event);
			}
			String old = updated.getOldResource().getMetadata().getResourceVersion();
			if (last != null && !Objects.equals(old, last.version())) {
				this.violations.add("updated from " + old + ", a state this listener did not last see ("
						+ last.version() + "): " + event);
			}
			if (last != null && last.uid() != null && uid != null && !last.uid().equals(uid)) {
				this.violations.add("updated to uid " + uid + " from uid " + last.uid()
						+ ": an object created again under this name, delivered as an update: " + event);
			}
			checkOrder(key, event, false);
			this.seen.put(key, new Seen(version, uid));
		}
		else if (event instanceof ResourceDeletedEvent<?> deleted) {
			this.seen.remove(key);
			if (last == null) {
				if (!this.peers) {
					this.violations.add("deleted while absent: " + event);
				}
			}
			else if (deleted.isFinalStateUnknown() && !this.filtering && !last.version().equals(version)) {
				// the last state known is the one listeners saw
				this.violations.add("deleted (final state unknown) as " + version
						+ ", a state this listener did not last see (" + last.version() + "): " + event);
			}
			else if (deleted.isLeftSelection() && !last.version().equals(version)) {
				// its namespace left the selection: the state listeners saw leaves
				this.violations.add("left the selection as " + version + ", a state this listener did not last see ("
						+ last.version() + "): " + event);
			}
			if (deleted.isLeftSelection()) {
				// it may come back, from its namespace joining again, in any later state
				this.lastVersion.remove(key);
			}
			else if (deleted.isReplay() && lastUidOfName != null && uid != null && !lastUidOfName.equals(uid)) {
				// a replayed delete (at least once) of an older object under this name,
				// which another replica published: the replica follows it with a replayed
				// add of the object it holds, if any; a map by name is left as it was
				// (docs/reliability.md)
				this.lastUid.put(key, lastUidOfName);
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
				+ (((event instanceof ResourceAddedEvent<?> added) && added.isReplay()) ? " (replay)" : "")
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
		List<String> differences = differences(serverState.get());
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
						: differences(serverState.get()).isEmpty());
		}
		catch (ConditionTimeoutException ex) {
			// the caller's assertions say what differs
		}
	}

	private List<String> differences(Map<String, String> serverState) {
		return this.checker.differences(this.checker.serverVersions(serverState), Set.of(), this.replica::equals);
	}

	/**
	 * Return the first violations, at most 20, and how many more there are.
	 * @return the violations
	 */
	public synchronized List<String> firstViolations() {
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

	/**
	 * Return this listener's view, folded by its checker: key to resourceVersion.
	 * @return the view
	 */
	public Map<String, String> applied() {
		Map<String, String> applied = new HashMap<>();
		this.checker.view(this.replica::equals)
			.forEach((key, state) -> applied.put(key, Long.toString(state.resourceVersion())));
		return applied;
	}

	public synchronized List<String> violations() {
		return new ArrayList<>(this.violations);
	}

	public synchronized int eventCount() {
		return this.events;
	}

	/**
	 * What this listener last saw of an object.
	 */
	private record Seen(String version, @Nullable String uid) {

	}

}
