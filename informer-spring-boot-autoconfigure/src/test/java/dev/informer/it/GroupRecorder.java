package dev.informer.it;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourcesReplayedEvent;

/**
 * Records the resource events every replica of a group publishes, in the order they were
 * published across the group, and folds them into the view a listener of the whole group
 * would have: adds and updates set an object's state, deletes remove it, and a replay
 * (its replayed adds up to the {@link ResourcesReplayedEvent}) replaces the view of the
 * replaying replica's objects.
 */
final class GroupRecorder {

	private final List<Published> published = new ArrayList<>();

	/**
	 * Return the listener of one replica; it takes {@code delay} per resource event, so
	 * that a backlog builds up behind it.
	 * @param replica the replica's name
	 * @param delay the time each event takes
	 * @return the listener, to register as a bean
	 */
	ApplicationListener<ApplicationEvent> listener(String replica, Duration delay) {
		return listener(replica, delay, List::of);
	}

	/**
	 * Return the listener of one replica that also notes, with each
	 * {@link ResourcesReplayedEvent}, the members of its sharded group as the replica
	 * sees them then: the range that replay covers.
	 * @param replica the replica's name
	 * @param delay the time each event takes
	 * @param members the members as the replica sees them
	 * @return the listener, to register as a bean
	 */
	ApplicationListener<ApplicationEvent> listener(String replica, Duration delay, Supplier<List<String>> members) {
		return (event) -> {
			if (event instanceof ResourceEvent<?> resourceEvent) {
				// published when the listener is called; a call running at a deadline
				// ends (there is no fencing)
				Instant at = Instant.now();
				if (!delay.isZero()) {
					// a slow listener, so that a backlog exists: not synchronization
					LockSupport.parkNanos(delay.toNanos());
				}
				record(replica, resourceEvent, at);
			}
			else if (event instanceof ResourcesReplayedEvent replayed) {
				List<String> seen = members.get();
				synchronized (this) {
					this.published
						.add(new Published(replica, "replayed", replayed.getInformerName(), "", Instant.now(), seen));
				}
			}
		};
	}

	private synchronized void record(String replica, ResourceEvent<?> event, Instant at) {
		String kind = (event instanceof ResourceAddedEvent<?> added) ? (added.isReplay() ? "replay" : "added")
				: (event instanceof ResourceDeletedEvent<?> deleted)
						? (deleted.isFinalStateUnknown() ? "deleted-unknown" : "deleted") : "updated";
		this.published.add(new Published(replica, kind, event.getName(), event.getResourceVersion(), at));
	}

	synchronized List<Published> published() {
		return List.copyOf(this.published);
	}

	synchronized List<Published> by(String replica) {
		return this.published.stream().filter((p) -> p.replica().equals(replica)).toList();
	}

	/**
	 * Return the live (not replayed) events of one object, across the group; a delete
	 * whose final state is unknown (found by a relist or a replay) is not live.
	 */
	synchronized List<Published> liveEventsOf(String name) {
		return this.published.stream()
			.filter((p) -> p.name().equals(name) && !p.kind().equals("replay") && !p.kind().equals("replayed")
					&& !p.kind().equals("deleted-unknown"))
			.toList();
	}

	/**
	 * Return the group's view, folded by resourceVersion so that the order in which two
	 * replicas' events interleave does not matter: an add, update or replayed add sets an
	 * object's state unless the view already holds a newer one, or the object was deleted
	 * at that version or later; a delete removes it. A {@link ResourcesReplayedEvent}
	 * reconciles, as the docs tell listeners to: objects the replay should have covered
	 * and did not are gone. In {@code leader} mode ({@code uids == null}) a replay covers
	 * every object. In {@code sharded} mode it covers the replica's range (the members it
	 * saw at the event) and never another replica's objects: only objects in that range
	 * that another replica published last (those it gained) are removed when the replay
	 * missed them; deleted objects the replica had published itself must come as deletes.
	 * @param uids object name to uid, for the owner of each object in sharded mode;
	 * {@code null} in leader mode
	 * @return object name to resourceVersion
	 */
	synchronized Map<String, String> foldedView(@Nullable Map<String, String> uids) {
		Map<String, Long> view = new LinkedHashMap<>();
		Map<String, Set<String>> publishedBy = new LinkedHashMap<>();
		Map<String, Long> deleted = new LinkedHashMap<>();
		Map<String, Set<String>> replaying = new LinkedHashMap<>();
		for (Published p : this.published) {
			switch (p.kind()) {
				case "added", "updated", "replay" -> {
					long version = Long.parseLong(p.resourceVersion());
					long current = view.getOrDefault(p.name(), -1L);
					if (version > current && version > deleted.getOrDefault(p.name(), -1L)) {
						view.put(p.name(), version);
						publishedBy.put(p.name(), new HashSet<>(Set.of(p.replica())));
					}
					else if (version == current) {
						publishedBy.get(p.name()).add(p.replica());
					}
					if (p.kind().equals("replay")) {
						replaying.computeIfAbsent(p.replica(), (r) -> new HashSet<>()).add(p.name());
					}
				}
				case "deleted", "deleted-unknown" -> {
					long version = Math.max(Long.parseLong(p.resourceVersion()), view.getOrDefault(p.name(), -1L));
					view.remove(p.name());
					deleted.merge(p.name(), version, Math::max);
				}
				case "replayed" -> {
					Set<String> replayed = replaying.getOrDefault(p.replica(), Set.of());
					for (String name : Set.copyOf(view.keySet())) {
						if (!replayed.contains(name)
								&& covers(p, name, publishedBy.getOrDefault(name, Set.of()), uids)) {
							// gone by the replay; a later event may bring it back
							view.remove(name);
						}
					}
					replaying.remove(p.replica());
				}
				default -> throw new IllegalStateException(p.kind());
			}
		}
		Map<String, String> result = new LinkedHashMap<>();
		view.forEach((name, version) -> result.put(name, Long.toString(version)));
		return result;
	}

	private static boolean covers(Published replayed, String name, Set<String> publishedBy,
			@Nullable Map<String, String> uids) {
		if (uids == null) {
			return true;
		}
		List<String> members = replayed.members();
		String uid = uids.get(name);
		return uid != null && members.contains(replayed.replica()) && !publishedBy.contains(replayed.replica())
				&& ReplicaGroup.owner(uid, members).equals(replayed.replica());
	}

	/**
	 * Return the group's view in {@code leader} mode, where a replay covers every object:
	 * object name to resourceVersion.
	 * @return the view
	 */
	synchronized Map<String, String> view() {
		Map<String, String> view = new LinkedHashMap<>();
		Map<String, Set<String>> replaying = new LinkedHashMap<>();
		for (Published p : this.published) {
			switch (p.kind()) {
				case "added", "updated" -> {
					view.put(p.name(), p.resourceVersion());
				}
				case "deleted", "deleted-unknown" -> view.remove(p.name());
				case "replay" -> {
					view.put(p.name(), p.resourceVersion());
					replaying.computeIfAbsent(p.replica(), (r) -> new HashSet<>()).add(p.name());
				}
				case "replayed" -> {
					// objects the new leader did not replay are gone
					Set<String> replayed = replaying.getOrDefault(p.replica(), Set.of());
					Set<String> known = new HashSet<>(view.keySet());
					for (String name : known) {
						if (!replayed.contains(name)) {
							view.remove(name);
						}
					}
					replaying.remove(p.replica());
				}
				default -> throw new IllegalStateException(p.kind());
			}
		}
		return view;
	}

	/**
	 * One event a replica published.
	 *
	 * @param replica the replica
	 * @param kind {@code added}, {@code updated}, {@code deleted},
	 * {@code deleted-unknown} (final state unknown), {@code replay} (a replayed add) or
	 * {@code replayed} (the {@link ResourcesReplayedEvent})
	 * @param name the object's name, the informer's for {@code replayed}
	 * @param resourceVersion the object's resourceVersion
	 * @param at when the listener was called
	 * @param members for {@code replayed}: the members of a sharded group the replica saw
	 */
	record Published(String replica, String kind, String name, String resourceVersion, Instant at,
			List<String> members) {

		Published(String replica, String kind, String name, String resourceVersion, Instant at) {
			this(replica, kind, name, resourceVersion, at, List.of());
		}

	}

}
