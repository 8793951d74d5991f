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

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;
import dev.informer.event.DeliveryRoleChangedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourcesReplayedEvent;

/**
 * Records the resource events every replica of a group publishes, in the order they were
 * published across the group, and folds them into the view a listener of the whole group
 * would have: adds and updates set an object's state, deletes remove it, and a replay
 * (its replayed adds up to the {@link ResourcesReplayedEvent}) reconciles what it covers
 * ({@link #view()} in order, {@link #foldedView} by resourceVersion and range).
 */
final class GroupRecorder {

	private final List<Published> published = new ArrayList<>();

	private final Map<String, List<String>> observed = new LinkedHashMap<>();

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
				observeRange(replica, members.get());
				if (!delay.isZero()) {
					// a slow listener, so that a backlog exists: not synchronization
					LockSupport.parkNanos(delay.toNanos());
				}
				record(replica, resourceEvent, at);
			}
			else if (event instanceof DeliveryRoleChangedEvent changed && changed.getMode() == DeliveryMode.SHARDED) {
				// the range this replica owns from now
				// on (its members; none when detached)
				List<String> owned = (changed.getRole() == DeliveryRole.MEMBER) ? changed.getMembers() : List.of();
				synchronized (this) {
					this.published.add(new Published(replica, "range", "", "", Instant.now(), owned));
				}
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

	/**
	 * Note the range the replica has when it publishes, if it changed since the last
	 * note: its role change events may come late, and not at all for its first range.
	 */
	private synchronized void observeRange(String replica, List<String> members) {
		if (members.isEmpty()) {
			return;
		}
		List<String> last = this.observed.get(replica);
		if (last == null || !shard(last, replica).equals(shard(members, replica))) {
			this.observed.put(replica, members);
			this.published.add(new Published(replica, "range", "", "", Instant.now(), members));
		}
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
	 * reconciles, as docs/replicas.md tells listeners to: objects the replay covers and
	 * did not replay are gone. In {@code leader} mode ({@code uids == null}) a replay
	 * covers every object. In {@code sharded} mode it covers the part of the replica's
	 * range it gained (its range at the event, the members it saw then, less the range it
	 * had before, from its {@link DeliveryRoleChangedEvent}s) and never another replica's
	 * objects; objects the replica owned before and that were deleted while it could not
	 * publish must come as deletes.
	 * @param uids object name to uid, for the owner of each object in sharded mode;
	 * {@code null} in leader mode
	 * @return object name to resourceVersion
	 */
	synchronized Map<String, String> foldedView(@Nullable Map<String, String> uids) {
		Map<String, Long> view = new LinkedHashMap<>();
		Map<String, Long> deleted = new LinkedHashMap<>();
		Map<String, Set<String>> replaying = new LinkedHashMap<>();
		Map<String, List<List<String>>> ranges = new LinkedHashMap<>();
		for (Published p : this.published) {
			switch (p.kind()) {
				case "added", "updated", "replay" -> {
					long version = Long.parseLong(p.resourceVersion());
					if (version > view.getOrDefault(p.name(), -1L) && version > deleted.getOrDefault(p.name(), -1L)) {
						view.put(p.name(), version);
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
				case "range" -> ranges.computeIfAbsent(p.replica(), (r) -> new ArrayList<>()).add(p.members());
				case "replayed" -> {
					Set<String> replayed = replaying.getOrDefault(p.replica(), Set.of());
					List<String> before = previousRange(p, ranges.getOrDefault(p.replica(), List.of()));
					for (String name : Set.copyOf(view.keySet())) {
						if (!replayed.contains(name) && covers(p, before, name, uids)) {
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

	/**
	 * Return the members that gave the replica its range before the one of this replay:
	 * the last of its ranges that differs from it (none when it had none).
	 */
	private static List<String> previousRange(Published replayed, List<List<String>> history) {
		List<Integer> now = shard(replayed.members(), replayed.replica());
		for (int i = history.size() - 1; i >= 0; i--) {
			if (!shard(history.get(i), replayed.replica()).equals(now)) {
				return history.get(i);
			}
		}
		return List.of();
	}

	/** A replica's shard: its index among the sorted members and their number. */
	private static List<Integer> shard(List<String> members, String replica) {
		List<String> sorted = new ArrayList<>(members);
		sorted.sort(null);
		return List.of(sorted.indexOf(replica), sorted.size());
	}

	private static boolean covers(Published replayed, List<String> before, String name,
			@Nullable Map<String, String> uids) {
		if (uids == null) {
			return true;
		}
		String replica = replayed.replica();
		String uid = uids.get(name);
		if (uid == null || !replayed.members().contains(replica)
				|| !ShardOwner.of(uid, replayed.members()).equals(replica)) {
			return false;
		}
		return !before.contains(replica) || !ShardOwner.of(uid, before).equals(replica);
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
				case "range" -> {
				}
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
	 * {@code deleted-unknown} (final state unknown), {@code replay} (a replayed add),
	 * {@code replayed} (the {@link ResourcesReplayedEvent}) or {@code range} (a
	 * {@link DeliveryRoleChangedEvent} of a sharded group)
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
