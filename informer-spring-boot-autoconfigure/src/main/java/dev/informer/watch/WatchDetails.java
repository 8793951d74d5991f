package dev.informer.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
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
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("state", snapshot.state().name());
		details.put("stateSince", format(snapshot.stateSince()));
		details.put("apiVersion", declaration.getApiVersion());
		details.put("kind", declaration.getKind());
		String namespace = namespace(informer, snapshot);
		if (namespace != null) {
			details.put("namespace", namespace);
		}
		putIfPresent(details, "namespaceSelector", declaration.getNamespaceSelector());
		putIfPresent(details, "resourceVersion", snapshot.lastResourceVersion());
		details.put("synced", snapshot.isSynced());
		putIfPresent(details, "syncedAt", format(snapshot.syncedAt()));
		details.put("watching", snapshot.watching());
		if (!snapshot.watching()) {
			putIfPresent(details, "notWatchingSince", format(snapshot.notWatchingSince()));
		}
		details.put("cacheSize", snapshot.cacheSize());
		details.put("backlog", snapshot.backlog());
		putIfPresent(details, "lastEventAt", format(snapshot.lastEventAt()));
		putIfPresent(details, "lastActivityAt", format(snapshot.lastActivityAt()));
		ListCycle list = snapshot.lastList();
		if (list != null) {
			Map<String, Object> lastList = new LinkedHashMap<>();
			lastList.put("startedAt", format(list.startedAt()));
			lastList.put("duration", list.duration().toString());
			lastList.put("items", list.items());
			lastList.put("trigger", list.trigger().tagValue());
			details.put("lastList", lastList);
		}
		if (!snapshot.resync().period().isZero()) {
			Map<String, Object> resync = new LinkedHashMap<>();
			resync.put("period", snapshot.resync().period().toString());
			resync.put("cycles", snapshot.resync().cycles());
			putIfPresent(resync, "lastAt", format(snapshot.resync().lastAt()));
			Duration duration = snapshot.resync().lastDuration();
			putIfPresent(resync, "lastDuration", (duration != null) ? duration.toString() : null);
			putIfPresent(resync, "nextDueAt", format(snapshot.resync().nextDueAt()));
			details.put("lastResync", resync);
		}
		details.put("reconnects", snapshot.reconnects());
		details.put("relists", snapshot.relists());
		details.put("events", snapshot.events());
		details.put("listenerFailures", snapshot.listenerFailures());
		if (!declaration.getChangePaths().isEmpty()) {
			details.put("filteredEvents", snapshot.filteredEvents());
		}
		putLastError(details, snapshot.lastError());
		return details;
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
		details.put("state", snapshot.state().name());
		details.put("synced", snapshot.isSynced());
		details.put("watching", snapshot.watching());
		if (!snapshot.watching()) {
			putIfPresent(details, "notWatchingSince", format(snapshot.notWatchingSince()));
		}
		putIfPresent(details, "resourceVersion", snapshot.lastResourceVersion());
		details.put("reconnects", snapshot.reconnects());
		details.put("relists", snapshot.relists());
		putLastError(details, snapshot.lastError());
		return details;
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
