package dev.informer.runtime.status;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.informer.watch.UndecodableObject;

/**
 * The objects of one watch that are skipped because they do not decode, by key, until a
 * later version decodes or they are deleted. Names and versions only, never content.
 */
public final class UndecodableVersions {

	private final Map<String, UndecodableObject> skipped = new ConcurrentHashMap<>();

	/**
	 * Record that an object was skipped because it does not decode.
	 * @param object the object
	 * @return whether this version of it was not known yet
	 */
	public boolean skipped(UndecodableObject object) {
		UndecodableObject previous = this.skipped.put(object.key(), object);
		return previous == null || !Objects.equals(previous.resourceVersion(), object.resourceVersion());
	}

	/**
	 * Record that an object that did not decode was deleted.
	 * @param key its cache key
	 */
	public void deleted(String key) {
		if (!this.skipped.isEmpty()) {
			this.skipped.remove(key);
		}
	}

	/**
	 * Record that a version of an object decoded and was handed on to listeners: it is no
	 * longer skipped, unless a later version was skipped meanwhile (listeners get events
	 * after they were decoded).
	 * @param namespace its namespace, {@code null} for a cluster-scoped object
	 * @param name its name
	 * @param resourceVersion the version that decoded
	 */
	public void decoded(@Nullable String namespace, String name, @Nullable String resourceVersion) {
		if (this.skipped.isEmpty()) {
			return;
		}
		String key = (namespace != null) ? namespace + "/" + name : name;
		this.skipped.computeIfPresent(key,
				(skippedKey, skipped) -> isLater(skipped.resourceVersion(), resourceVersion) ? skipped : null);
	}

	/**
	 * Whether a skipped version is later than a decoded one. resourceVersions are opaque
	 * to clients, but an API server backed by etcd numbers them in order; when either is
	 * not a number the decoded one is taken as the later.
	 */
	private static boolean isLater(@Nullable String skipped, @Nullable String decoded) {
		try {
			return skipped != null && decoded != null && Long.parseLong(skipped) > Long.parseLong(decoded);
		}
		catch (NumberFormatException ex) {
			return false;
		}
	}

	/**
	 * Record what a list skipped: all objects that do not decode now.
	 * @param skipped the objects the list skipped
	 * @return those whose version was not known yet
	 */
	public List<UndecodableObject> listed(Collection<UndecodableObject> skipped) {
		List<UndecodableObject> unknown = new ArrayList<>();
		synchronized (this.skipped) {
			this.skipped.keySet().retainAll(skipped.stream().map(UndecodableObject::key).toList());
			for (UndecodableObject object : skipped) {
				if (skipped(object)) {
					unknown.add(object);
				}
			}
		}
		return unknown;
	}

	List<UndecodableObject> list() {
		if (this.skipped.isEmpty()) {
			return List.of();
		}
		return this.skipped.values().stream().sorted(Comparator.comparing(UndecodableObject::key)).toList();
	}

}
