package dev.informer.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.informer.Informer;
import dev.informer.InformerDeclaration;

/**
 * Describes one watch for health details and the {@code informers} actuator endpoint: state,
 * progress, counters and the last error, with times as ISO-8601 strings. Never any resource
 * data.
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
	 * @param status one of its watches
	 * @return the details, in a stable order
	 */
	public static Map<String, Object> of(Informer<?> informer, Watch status) {
		InformerDeclaration declaration = informer.getDefinition().getDeclaration();
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("state", status.getState().name());
		details.put("stateSince", format(status.getStateSince()));
		details.put("apiVersion", declaration.getApiVersion());
		details.put("kind", declaration.getKind());
		String namespace = namespace(informer, status);
		if (namespace != null) {
			details.put("namespace", namespace);
		}
		putIfPresent(details, "resourceVersion", status.getLastResourceVersion());
		details.put("synced", status.isSynced());
		putIfPresent(details, "syncedAt", format(status.getSyncedAt()));
		details.put("watching", status.isWatching());
		if (!status.isWatching()) {
			putIfPresent(details, "notWatchingSince", format(status.getNotWatchingSince()));
		}
		details.put("cacheSize", status.getCacheSize());
		details.put("backlog", status.getBacklog());
		putIfPresent(details, "lastEventAt", format(status.getLastEventAt()));
		putIfPresent(details, "lastActivityAt", format(status.getLastActivityAt()));
		ListCycle list = status.getLastList();
		if (list != null) {
			Map<String, Object> lastList = new LinkedHashMap<>();
			lastList.put("startedAt", format(list.startedAt()));
			lastList.put("duration", list.duration().toString());
			lastList.put("items", list.items());
			lastList.put("trigger", list.trigger().tagValue());
			details.put("lastList", lastList);
		}
		if (!status.getResyncPeriod().isZero()) {
			Map<String, Object> resync = new LinkedHashMap<>();
			resync.put("period", status.getResyncPeriod().toString());
			resync.put("cycles", status.getResyncCount());
			putIfPresent(resync, "lastAt", format(status.getLastResyncAt()));
			Duration duration = status.getLastResyncDuration();
			putIfPresent(resync, "lastDuration", (duration != null) ? duration.toString() : null);
			putIfPresent(resync, "nextDueAt", format(status.getNextResyncAt()));
			details.put("lastResync", resync);
		}
		details.put("reconnects", status.getReconnects());
		details.put("relists", status.getRelists());
		details.put("events", status.getEvents());
		details.put("listenerFailures", status.getListenerFailures());
		WatchError error = status.getLastError();
		if (error != null) {
			Map<String, Object> lastError = new LinkedHashMap<>();
			lastError.put("at", format(error.at()));
			lastError.put("httpCode", error.httpCode());
			lastError.put("reason", error.reason());
			lastError.put("message", error.message());
			details.put("lastError", lastError);
		}
		return details;
	}

	/**
	 * Return the namespace to show for a watch.
	 * @param informer the informer
	 * @param status one of its watches
	 * @return the namespace, {@value #ALL_NAMESPACES} for all namespaces, {@code null} for a
	 * cluster-scoped kind
	 */
	public static @Nullable String namespace(Informer<?> informer, Watch status) {
		if (status.getNamespace() != null) {
			return status.getNamespace();
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
