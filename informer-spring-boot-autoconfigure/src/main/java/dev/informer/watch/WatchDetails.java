package dev.informer.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.informer.Informer;
import dev.informer.InformerDeclaration;

/**
 * Describes one watch for health details and the {@code informers} actuator endpoint:
 * state, progress, counters and the last error, with times as ISO-8601 strings. Never any
 * resource data.
 *
 * @since 0.1.0
 */
public final class WatchDetails {

	/**
	 * The namespace shown for a watch of all namespaces.
	 */
	public static final String ALL_NAMESPACES = "*";

	private static final int UNDECODABLE_SHOWN = 10;

	private WatchDetails() {
	}

	/**
	 * Describe one watch.
	 * @param informer the informer
	 * @param snapshot a snapshot of one of its watches
	 * @return the details, in a stable order
	 */
	public static Map<String, Object> of(Informer<?> informer, WatchSnapshot snapshot) {
		InformerDeclaration declaration = informer.getDefinition().getDeclaration();
		WatchSnapshot.Lifecycle lifecycle = snapshot.lifecycle();
		WatchSnapshot.Cache cache = snapshot.cache();
		WatchSnapshot.Events events = snapshot.events();
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("state", lifecycle.state().name());
		details.put("stateSince", format(lifecycle.since()));
		details.put("apiVersion", declaration.getApiVersion());
		details.put("kind", declaration.getKind());
		String namespace = namespace(informer, snapshot);
		if (namespace != null) {
			details.put("namespace", namespace);
		}
		putIfPresent(details, "namespaceSelector", declaration.getNamespaceSelector());
		putIfPresent(details, "resourceVersion", cache.lastResourceVersion());
		details.put("synced", lifecycle.isSynced());
		putIfPresent(details, "syncedAt", format(lifecycle.syncedAt()));
		putWatching(details, snapshot.connection());
		details.put("cacheSize", cache.size());
		details.put("backlog", cache.backlog());
		putIfPresent(details, "lastEventAt", format(events.lastAt()));
		putIfPresent(details, "lastActivityAt", format(events.lastActivityAt()));
		ListCycle list = snapshot.lists().last();
		if (list != null) {
			Map<String, Object> lastList = new LinkedHashMap<>();
			lastList.put("startedAt", format(list.startedAt()));
			lastList.put("duration", list.duration().toString());
			lastList.put("items", list.items());
			lastList.put("trigger", list.trigger().tagValue());
			details.put("lastList", lastList);
		}
		WatchSnapshot.Resync resync = snapshot.resync();
		if (!resync.period().isZero()) {
			Map<String, Object> lastResync = new LinkedHashMap<>();
			lastResync.put("period", resync.period().toString());
			lastResync.put("cycles", resync.cycles());
			putIfPresent(lastResync, "lastAt", format(resync.lastAt()));
			Duration duration = resync.lastDuration();
			putIfPresent(lastResync, "lastDuration", (duration != null) ? duration.toString() : null);
			putIfPresent(lastResync, "nextDueAt", format(resync.nextDueAt()));
			details.put("lastResync", lastResync);
		}
		details.put("reconnects", snapshot.connection().reconnects());
		putLiveness(details, snapshot);
		details.put("relists", snapshot.lists().relists());
		details.put("events", events.byType());
		details.put("listenerFailures", events.listenerFailures());
		if (!declaration.getChangePaths().isEmpty()) {
			details.put("filteredEvents", events.filtered());
		}
		putLag(details, snapshot.lag());
		putLastError(details, snapshot.errors().last());
		putUndecodable(details, snapshot.errors().undecodable());
		return details;
	}

	private static void putLag(Map<String, Object> details, WatchSnapshot.Lag lag) {
		if (lag.checks() == 0 && lag.checkFailures() == 0) {
			return;
		}
		Map<String, Object> values = new LinkedHashMap<>();
		putIfPresent(values, "serverResourceVersion", lag.serverResourceVersion());
		putIfPresent(values, "checkedAt", format(lag.checkedAt()));
		putIfPresent(values, "behind", lag.behind());
		Duration staleFor = lag.staleFor();
		putIfPresent(values, "staleFor", (staleFor != null) ? staleFor.toString() : null);
		values.put("checks", lag.checks());
		values.put("checkFailures", lag.checkFailures());
		putIfPresent(values, "lastFailure", lag.lastFailure());
		details.put("lag", values);
	}

	/**
	 * Name the objects skipped because they do not decode: how many, and the first
	 * {@value #UNDECODABLE_SHOWN} by key.
	 */
	private static void putUndecodable(Map<String, Object> details, List<UndecodableObject> undecodable) {
		if (!undecodable.isEmpty()) {
			Map<String, Object> skipped = new LinkedHashMap<>();
			skipped.put("count", undecodable.size());
			skipped.put("objects",
					undecodable.stream().limit(UNDECODABLE_SHOWN).map(UndecodableObject::describe).toList());
			details.put("undecodable", skipped);
		}
	}

	/**
	 * Describe the watch on Namespaces of an informer's {@code namespace-selector}
	 * ({@link WatchedInformer#getNamespaceWatch()}).
	 * @param informer the informer
	 * @param snapshot a snapshot of its watch on Namespaces
	 * @return the details, in a stable order
	 */
	public static Map<String, Object> ofNamespaceSelection(WatchedInformer<?> informer, WatchSnapshot snapshot) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("kind", "Namespace");
		details.put("namespaceSelector",
				String.valueOf(informer.getDefinition().getDeclaration().getNamespaceSelector()));
		details.put("namespaces",
				informer.getWatches().stream().map((watch) -> String.valueOf(watch.getNamespace())).toList());
		details.put("state", snapshot.lifecycle().state().name());
		details.put("synced", snapshot.lifecycle().isSynced());
		putWatching(details, snapshot.connection());
		putIfPresent(details, "resourceVersion", snapshot.cache().lastResourceVersion());
		details.put("reconnects", snapshot.connection().reconnects());
		details.put("relists", snapshot.lists().relists());
		putLastError(details, snapshot.errors().last());
		return details;
	}

	private static void putWatching(Map<String, Object> details, WatchSnapshot.Connection connection) {
		details.put("watching", connection.watching());
		if (!connection.watching()) {
			putIfPresent(details, "notWatchingSince", format(connection.notWatchingSince()));
		}
	}

	private static void putLiveness(Map<String, Object> details, WatchSnapshot snapshot) {
		WatchSnapshot.Liveness liveness = snapshot.liveness();
		Map<String, Object> map = new LinkedHashMap<>();
		putIfPresent(map, "lastByteAt", format(liveness.lastByteAt()));
		Duration sinceLastByte = liveness.sinceLastByte(snapshot.takenAt());
		putIfPresent(map, "sinceLastByte", (sinceLastByte != null) ? sinceLastByte.toString() : null);
		putIfPresent(map, "lastBookmarkAt", format(liveness.lastBookmarkAt()));
		Duration sinceLastBookmark = liveness.sinceLastBookmark(snapshot.takenAt());
		putIfPresent(map, "sinceLastBookmark", (sinceLastBookmark != null) ? sinceLastBookmark.toString() : null);
		map.put("silentRestarts", liveness.silentRestarts());
		details.put("liveness", map);
	}

	private static void putLastError(Map<String, Object> details, @Nullable WatchError error) {
		if (error != null) {
			Map<String, Object> lastError = new LinkedHashMap<>();
			lastError.put("at", format(error.at()));
			lastError.put("httpCode", error.httpCode());
			lastError.put("reason", error.reason());
			lastError.put("message", error.message());
			details.put("lastError", lastError);
		}
	}

	/**
	 * Return the namespace to show for a watch.
	 * @param informer the informer
	 * @param snapshot a snapshot of one of its watches
	 * @return the namespace, {@value #ALL_NAMESPACES} for all namespaces, {@code null}
	 * for a cluster-scoped kind
	 */
	public static @Nullable String namespace(Informer<?> informer, WatchSnapshot snapshot) {
		if (snapshot.namespace() != null) {
			return snapshot.namespace();
		}
		return informer.getDefinition().isNamespaced() ? ALL_NAMESPACES : null;
	}

	private static void putIfPresent(Map<String, Object> details, String key, @Nullable Object value) {
		if (value != null) {
			details.put(key, value);
		}
	}

	private static @Nullable String format(@Nullable Instant instant) {
		return (instant != null) ? instant.toString() : null;
	}

}
