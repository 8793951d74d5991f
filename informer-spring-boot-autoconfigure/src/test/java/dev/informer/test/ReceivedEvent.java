package dev.informer.test;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One event one listener received.
 *
 * @param replica the listener
 * @param type what it was
 * @param replay whether an add or a delete was a replay (delivered at least once, not
 * live)
 * @param finalStateUnknown whether a delete was found by a relist or a replay
 * @param leftSelection whether a delete was the namespace leaving a selection
 * @param key {@code namespace/name}
 * @param uid the object's uid
 * @param resourceVersion the object's resourceVersion
 * @param observed for a delete, the resourceVersion at which it was observed (the event's
 * {@code getObservedResourceVersion()}); for a put, its resourceVersion
 * @param parts the values at the checker's paths, or {@code null}
 * @param at when the listener was called with it
 */
public record ReceivedEvent(String replica, Type type, boolean replay, boolean finalStateUnknown, boolean leftSelection,
		String key, @Nullable String uid, long resourceVersion, long observed, @Nullable Map<String, Object> parts,
		Instant at) {

	/**
	 * Return the object's name.
	 * @return the name
	 */
	public String name() {
		return this.key.substring(this.key.indexOf('/') + 1);
	}

	/**
	 * Return what it was, in one word: {@code added}, {@code replay}, {@code updated},
	 * {@code deleted}, {@code deleted-unknown} or {@code left}.
	 * @return the label
	 */
	public String label() {
		return switch (this.type) {
			case ADDED -> this.replay ? "replay" : "added";
			case UPDATED -> "updated";
			case DELETED -> this.leftSelection ? "left" : (this.finalStateUnknown ? "deleted-unknown" : "deleted");
		};
	}

	@Override
	public String toString() {
		String uid = (this.uid != null) ? " " + this.uid.substring(0, Math.min(8, this.uid.length())) : "";
		return this.replica + " " + label() + " " + this.resourceVersion + uid;
	}

	/**
	 * The kind of event.
	 */
	public enum Type {

		ADDED, UPDATED, DELETED

	}

}
