package dev.informer.test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The delivery contract, checked as a user would check it: the listeners of one informer
 * (one per replica) apply what they receive to a map, and at quiescence the map equals
 * the API server's objects. It reads events only, never a starter internal, and asks no
 * more of a listener than the documentation does: an added or updated event puts the
 * object, a deleted event removes it, a replayed add ({@code isReplay()}) puts it, as any
 * add does. A {@code ResourcesReplayedEvent} means nothing here: no document asks a
 * listener to read it as "the objects not replayed are gone", so this checker does not.
 * <p>
 * <b>Folding the events of several replicas.</b> The replicas of a group publish in no
 * global order, so their events are folded by what each one says, not by when it came:
 * <ul>
 * <li>A uid names one object for its whole life and is never reused; its states are
 * ordered by resourceVersion. Of the puts of one uid the one with the highest
 * resourceVersion counts, whenever it was recorded: a put never overwrites a newer
 * state.</li>
 * <li>A delete says that the server had no object under its name at the delete's observed
 * resourceVersion ({@code getObservedResourceVersion()}: a watch's delete at its own
 * version, a delete a relist found at the list's, which is newer than the last known
 * state the event carries, a replayed one at the original's). So it ends every state of
 * that name, of any uid, at or below that version, recorded before or after; a state
 * above it puts again (a name created again, or an object that stopped decoding and
 * decodes again: its delete is at the version that does not decode). A late delete of an
 * old uid therefore leaves an object created again under its name in place
 * (docs/reliability.md, the contract's fold).</li>
 * <li>The view of a name is its newest live uid. An older uid of the same name that is
 * still live (put, never deleted) is a difference: the contract delivers a uid change
 * under one name as a delete and an add, so every uid a listener was given is deleted
 * once the server no longer has it.</li>
 * <li>A delete flagged {@code isLeftSelection()} is not a deletion (the namespace left a
 * {@code namespace-selector}; the object may come back): it removes the state it carries
 * and is forgotten, so a later add of the same uid puts again. It is ordered by the
 * recording only, so use it with one listener.</li>
 * <li>An event without a uid (none on a real server) falls back to versions: a delete at
 * v removes states at versions &lt;= v, and a later put at a version &gt; v adds
 * again.</li>
 * </ul>
 * <p>
 * <b>Comparing with the server.</b> Every name on the server must be in the view and
 * every name in the view on the server, with the server's uid; and then either the same
 * resourceVersion ({@link #byResourceVersion()}), or, for an informer with
 * {@code on-change}, equal values at the declared paths ({@link #byPaths}), since an
 * update of other parts is legitimately never delivered and leaves an older
 * resourceVersion in the view. Objects the test made impossible to decode into the
 * informer's class are, by the contract, skipped and reported rather than delivered: the
 * test names them (from what its own writer wrote, never from the starter), and they are
 * left out of the comparison and listed in the report.
 * <p>
 * The checks of each single listener (order, {@code getOldResource()}, no event for an
 * unchanged object) are {@link InvariantListener}'s, which records into this checker
 * ({@link ReceivedEvent}).
 */
public final class ContractChecker {

	private static final KubernetesSerialization serialization = new KubernetesSerialization();

	private final List<String> paths;

	private final List<ReceivedEvent> deliveries = new ArrayList<>();

	private long lastRecordedNanos = System.nanoTime();

	private ContractChecker(List<String> paths) {
		this.paths = List.copyOf(paths);
	}

	/**
	 * A checker that compares each object's resourceVersion: every update is delivered.
	 * @return the checker
	 */
	public static ContractChecker byResourceVersion() {
		return new ContractChecker(List.of());
	}

	/**
	 * A checker for an informer with {@code on-change}: it compares each object's uid and
	 * its values at these paths (dotted field names of the object's JSON, such as
	 * {@code data} or {@code metadata.labels}), which the test derives from its own
	 * declaration.
	 * @param paths the paths
	 * @return the checker
	 */
	public static ContractChecker byPaths(String... paths) {
		if (paths.length == 0) {
			throw new IllegalArgumentException("no path: use byResourceVersion()");
		}
		return new ContractChecker(List.of(paths));
	}

	/**
	 * Record an event one listener received.
	 * @param replica the listener (its replica)
	 * @param event the event
	 * @param called when the listener was called with it
	 */
	public void record(String replica, ResourceEvent<?> event, Instant called) {
		ReceivedEvent.Type type = (event instanceof ResourceAddedEvent<?>) ? ReceivedEvent.Type.ADDED
				: (event instanceof ResourceUpdatedEvent<?>) ? ReceivedEvent.Type.UPDATED : ReceivedEvent.Type.DELETED;
		boolean replay = ((event instanceof ResourceAddedEvent<?> added) && added.isReplay())
				|| ((event instanceof ResourceDeletedEvent<?> deleted) && deleted.isReplay());
		boolean unknown = (event instanceof ResourceDeletedEvent<?> deleted) && deleted.isFinalStateUnknown();
		boolean left = (event instanceof ResourceDeletedEvent<?> deleted) && deleted.isLeftSelection();
		HasMetadata resource = event.getResource();
		long version = Long.parseLong(Objects.requireNonNull(event.getResourceVersion()));
		String observed = (event instanceof ResourceDeletedEvent<?> deleted) ? deleted.getObservedResourceVersion()
				: null;
		ReceivedEvent delivery = new ReceivedEvent(replica, type, replay, unknown, left,
				key(event.getNamespace(), event.getName()), resource.getMetadata().getUid(), version,
				(observed != null) ? Long.parseLong(observed) : version, parts(resource), called);
		synchronized (this) {
			this.deliveries.add(delivery);
			this.lastRecordedNanos = System.nanoTime();
		}
	}

	// a cluster-scoped object's key is "null/name", as tests have always written it
	private static String key(@Nullable String namespace, @Nullable String name) {
		return namespace + "/" + name;
	}

	/**
	 * The values of an object at this checker's paths; {@code null} when it compares
	 * resourceVersions.
	 */
	private @Nullable Map<String, Object> parts(Object resource) {
		if (this.paths.isEmpty()) {
			return null;
		}
		@SuppressWarnings("unchecked")
		Map<String, Object> tree = serialization.convertValue(resource, Map.class);
		Map<String, Object> parts = new TreeMap<>();
		for (String path : this.paths) {
			Object value = tree;
			for (String field : path.split("\\.")) {
				value = (value instanceof Map<?, ?> map) ? map.get(field) : null;
			}
			// an absent map and an empty one are the same to a listener
			parts.put(path, (value instanceof Map<?, ?> map && map.isEmpty()) ? null : value);
		}
		return parts;
	}

	/**
	 * The server's objects, as this checker compares them.
	 * @param objects the objects, as listed from the server (typed or generic)
	 * @return the objects, by key ({@code namespace/name})
	 */
	public Map<String, ServerObject> serverState(Collection<? extends HasMetadata> objects) {
		Map<String, ServerObject> state = new TreeMap<>();
		for (HasMetadata object : objects) {
			String key = key(object.getMetadata().getNamespace(), object.getMetadata().getName());
			state.put(key, new ServerObject(object.getMetadata().getUid(),
					Long.parseLong(object.getMetadata().getResourceVersion()), parts(object)));
		}
		return state;
	}

	/**
	 * The server's objects given as key to resourceVersion only (no uid): for a checker
	 * by resourceVersion.
	 * @param versions key ({@code namespace/name}) to resourceVersion
	 * @return the objects
	 */
	public Map<String, ServerObject> serverVersions(Map<String, String> versions) {
		if (!this.paths.isEmpty()) {
			throw new IllegalStateException("a checker by paths needs the server's objects");
		}
		Map<String, ServerObject> state = new TreeMap<>();
		versions.forEach((key, version) -> state.put(key, new ServerObject(null, Long.parseLong(version), null)));
		return state;
	}

	/**
	 * Fold the events of some listeners into the view a user's map would hold.
	 * @param replicas which listeners' events to fold
	 * @return key to the state of each object in the view
	 */
	public Map<String, View> view(Predicate<String> replicas) {
		Map<String, View> view = new TreeMap<>();
		fold(replicas).forEach((key, fold) -> {
			View state = fold.view();
			if (state != null) {
				view.put(key, state);
			}
		});
		return view;
	}

	private synchronized Map<String, NameFold> fold(Predicate<String> replicas) {
		Map<String, NameFold> folds = new HashMap<>();
		for (ReceivedEvent delivery : this.deliveries) {
			if (replicas.test(delivery.replica())) {
				folds.computeIfAbsent(delivery.key(), (key) -> new NameFold()).apply(delivery);
			}
		}
		return folds;
	}

	/**
	 * Return each difference between the folded view of some listeners and the server,
	 * one line per object, with the events that object got.
	 * @param server the server's objects ({@link #serverState})
	 * @param notDeliverable keys of objects that cannot be decoded into the informer's
	 * class, from the test's writer
	 * @param replicas which listeners' events to fold
	 * @return the differences, empty when the view equals the server
	 */
	public List<String> differences(Map<String, ServerObject> server, Set<String> notDeliverable,
			Predicate<String> replicas) {
		Map<String, NameFold> folds = fold(replicas);
		Set<String> keys = new TreeSet<>(server.keySet());
		folds.forEach((key, fold) -> {
			if (!fold.live.isEmpty()) {
				keys.add(key);
			}
		});
		keys.removeAll(notDeliverable);
		List<String> differences = new ArrayList<>();
		for (String key : keys) {
			NameFold fold = folds.getOrDefault(key, new NameFold());
			String difference = difference(server.get(key), fold);
			if (difference != null) {
				differences.add(key + ": " + difference + "; delivered: " + history(key, replicas));
			}
		}
		return differences;
	}

	private @Nullable String difference(@Nullable ServerObject actual, NameFold fold) {
		View seen = fold.view();
		List<String> problems = new ArrayList<>();
		if (seen == null && actual != null) {
			problems.add("absent from the view, on the server as " + actual + " (its add was never delivered)");
		}
		else if (seen != null && actual == null) {
			problems.add("deleted on the server, in the view as " + seen + " (its delete was never delivered)");
		}
		else if (seen != null && actual != null) {
			if (actual.uid() != null && seen.uid() != null && !actual.uid().equals(seen.uid())) {
				problems.add("in the view as " + seen + ", on the server as " + actual
						+ " (the object created again under this name was never delivered)");
			}
			else if (this.paths.isEmpty() && seen.resourceVersion() != actual.resourceVersion()) {
				problems.add("in the view at resourceVersion " + seen.resourceVersion() + ", on the server at "
						+ actual.resourceVersion() + " (an update was never delivered)");
			}
			else if (!this.paths.isEmpty() && !Objects.equals(seen.parts(), actual.parts())) {
				problems.add("in the view " + seen.parts() + " at " + seen.resourceVersion() + ", on the server "
						+ actual.parts() + " at " + actual.resourceVersion()
						+ " (an update of a declared path was never delivered)");
			}
		}
		for (Map.Entry<String, ReceivedEvent> older : fold.live.entrySet()) {
			if (seen != null && !older.getKey().equals(seen.uid())) {
				problems.add("uid " + older.getKey() + " at " + older.getValue().resourceVersion()
						+ " was never deleted (the name now has uid " + seen.uid() + ")");
			}
		}
		return problems.isEmpty() ? null : String.join("; ", problems);
	}

	private synchronized String history(String key, Predicate<String> replicas) {
		List<String> events = this.deliveries.stream()
			.filter((d) -> d.key().equals(key) && replicas.test(d.replica()))
			.map(ReceivedEvent::toString)
			.toList();
		return (events.size() > 12) ? "..., " + events.subList(events.size() - 12, events.size()) : events.toString();
	}

	/**
	 * Wait until the folded view of some listeners equals the server, polling both; at
	 * most {@code atMost}, then assert it, naming each difference.
	 * @param server the server's objects, read on each poll ({@link #serverState})
	 * @param notDeliverable keys of objects that cannot be decoded, from the test's
	 * writer, read on each poll
	 * @param replicas which listeners' events to fold
	 * @param atMost how long the listeners may take to catch up
	 * @param description what is checked and how to rerun it, for the failure
	 */
	public void awaitEqual(Supplier<Map<String, ServerObject>> server, Supplier<Set<String>> notDeliverable,
			Predicate<String> replicas, Duration atMost, String description) {
		awaitEqual(server, notDeliverable, replicas, Patience.of(atMost, atMost), description);
	}

	/**
	 * Wait until the folded view of some listeners equals the server, polling both, for
	 * as long as the patience allows, then assert it, naming each difference.
	 * @param server the server's objects, read on each poll ({@link #serverState})
	 * @param notDeliverable keys of objects that cannot be decoded, from the test's
	 * writer, read on each poll
	 * @param replicas which listeners' events to fold
	 * @param patience how long to wait
	 * @param description what is checked and how to rerun it, for the failure
	 */
	public void awaitEqual(Supplier<Map<String, ServerObject>> server, Supplier<Set<String>> notDeliverable,
			Predicate<String> replicas, Patience patience, String description) {
		try {
			await().atMost(Duration.ofNanos(Math.max(0, patience.deadline() - System.nanoTime())))
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(500))
				.until(() -> differences(server.get(), notDeliverable.get(), replicas).isEmpty()
						|| isIdleSince(patience));
		}
		catch (ConditionTimeoutException ex) {
			// the assertion says what differs
		}
		assertEqual(server.get(), notDeliverable.get(), replicas, description);
	}

	private synchronized boolean isIdleSince(Patience patience) {
		return System.nanoTime() - Math.max(patience.started(), this.lastRecordedNanos) > patience.idle().toNanos();
	}

	/**
	 * Assert that the folded view of some listeners equals the server now.
	 * @param server the server's objects ({@link #serverState})
	 * @param notDeliverable keys of objects that cannot be decoded, from the test's
	 * writer
	 * @param replicas which listeners' events to fold
	 * @param description what is checked and how to rerun it, for the failure
	 */
	public void assertEqual(Map<String, ServerObject> server, Set<String> notDeliverable, Predicate<String> replicas,
			String description) {
		List<String> differences = differences(server, notDeliverable, replicas);
		assertThat(differences)
			.as(() -> description + ": the listeners' view (" + count(replicas) + " events) differs from the server's "
					+ server.size() + " objects on " + differences.size() + " (not deliverable, left out: "
					+ new TreeSet<>(notDeliverable) + ")")
			.isEmpty();
	}

	private synchronized long count(Predicate<String> replicas) {
		return this.deliveries.stream().filter((d) -> replicas.test(d.replica())).count();
	}

	/**
	 * Return every event recorded, in the order it was recorded.
	 * @return the events
	 */
	public synchronized List<ReceivedEvent> deliveries() {
		return List.copyOf(this.deliveries);
	}

	/**
	 * Return the events one listener received.
	 * @param replica the listener
	 * @return the events
	 */
	public synchronized List<ReceivedEvent> by(String replica) {
		return this.deliveries.stream().filter((d) -> d.replica().equals(replica)).toList();
	}

	/**
	 * Return the live events of one object, across listeners: not replayed adds, and not
	 * deletes with final state unknown (found by a relist or a replay).
	 * @param name the object's name
	 * @return the events
	 */
	public synchronized List<ReceivedEvent> liveEventsOf(String name) {
		return this.deliveries.stream()
			.filter((d) -> d.name().equals(name) && !d.replay() && !d.finalStateUnknown())
			.toList();
	}

	/**
	 * Return a line that counts the events of each listener by type.
	 * @return the summary
	 */
	public synchronized String summary() {
		Map<String, Map<String, Long>> counts = new TreeMap<>();
		for (ReceivedEvent d : this.deliveries) {
			counts.computeIfAbsent(d.replica(), (r) -> new TreeMap<>()).merge(d.label(), 1L, Long::sum);
		}
		return counts.toString();
	}

	/**
	 * How long to wait for listeners to catch up: until a deadline, or until none of them
	 * received anything for a while (the server no longer changing, which is the caller's
	 * to ensure); both from one start, shared by the checks that follow it.
	 *
	 * @param started when the wait started ({@link System#nanoTime()})
	 * @param deadline when it ends at the latest ({@link System#nanoTime()})
	 * @param idle how long without any event ends it
	 */
	public record Patience(long started, long deadline, Duration idle) {

		/**
		 * Start waiting now.
		 * @param atMost how long at most
		 * @param idle how long without any event ends it
		 * @return the patience
		 */
		public static Patience of(Duration atMost, Duration idle) {
			long now = System.nanoTime();
			return new Patience(now, now + atMost.toNanos(), idle);
		}

	}

	/**
	 * One object in the folded view.
	 *
	 * @param uid its uid
	 * @param resourceVersion its resourceVersion
	 * @param parts its values at the declared paths, or {@code null}
	 */
	public record View(@Nullable String uid, long resourceVersion, @Nullable Map<String, Object> parts) {

		@Override
		public String toString() {
			return "uid " + this.uid + " at " + this.resourceVersion;
		}

	}

	/**
	 * One object on the server.
	 *
	 * @param uid its uid, {@code null} when only versions are known
	 * @param resourceVersion its resourceVersion
	 * @param parts its values at the declared paths, or {@code null}
	 */
	public record ServerObject(@Nullable String uid, long resourceVersion, @Nullable Map<String, Object> parts) {

		@Override
		public String toString() {
			return "uid " + this.uid + " at " + this.resourceVersion;
		}

	}

}
