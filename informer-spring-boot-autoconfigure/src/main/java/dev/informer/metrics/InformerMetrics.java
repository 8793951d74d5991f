package dev.informer.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import dev.informer.Informer;
import dev.informer.watch.DeliveryObserver;
import dev.informer.watch.EventType;
import dev.informer.watch.ListCycle;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchRegistry;
import dev.informer.watch.WatchSetObserver;
import dev.informer.watch.WatchSnapshot;
import dev.informer.watch.WatchedInformer;

/**
 * Micrometer meters of every informer's watches, tagged with {@code informer} and
 * {@value #NAMESPACE_TAG} (the watched namespace, or {@code *} for an informer of all
 * namespaces or of a cluster-scoped kind: Prometheus needs the same tag keys on every
 * meter of a name). The namespace tag is not called {@code namespace} because Prometheus
 * service discovery gives every target a {@code namespace} label (the pod's), which would
 * rename it to {@code exported_namespace}. Counters and gauges read a snapshot of each
 * {@link Watch}, which the meters of a watch share within a scrape; only listener
 * durations are recorded, as a {@link DeliveryObserver}. The watch on Namespaces of a
 * {@code namespace-selector} has meters of its own
 * ({@code informer.namespace.selection.*}, see {@link NamespaceSelectionMeters}).
 * <table>
 * <caption>Meters</caption>
 * <tr>
 * <th>Name</th>
 * <th>Type</th>
 * <th>Extra tags</th>
 * </tr>
 * <tr>
 * <td>{@code informer.events}</td>
 * <td>function counter</td>
 * <td>{@code type}</td>
 * </tr>
 * <tr>
 * <td>{@code informer.events.filtered}</td>
 * <td>function counter</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.cache.size}</td>
 * <td>gauge</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.watching}</td>
 * <td>gauge, 0 or 1</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.synced}</td>
 * <td>gauge, 0 or 1</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.watch.reconnects}</td>
 * <td>function counter</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.relists}</td>
 * <td>function counter</td>
 * <td>{@code reason}</td>
 * </tr>
 * <tr>
 * <td>{@code informer.list.duration}</td>
 * <td>function timer</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.list.items}</td>
 * <td>gauge</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.resync.duration}</td>
 * <td>function timer</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.resync.last.timestamp}</td>
 * <td>time gauge, Unix time</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.event.last.timestamp}</td>
 * <td>time gauge, Unix time</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.resource.version}</td>
 * <td>gauge</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.listener.duration}</td>
 * <td>timer</td>
 * <td>{@code type}</td>
 * </tr>
 * <tr>
 * <td>{@code informer.listener.errors}</td>
 * <td>function counter</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.backlog}</td>
 * <td>gauge</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.events.coalesced}</td>
 * <td>function counter</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.listener.executor.rejections}</td>
 * <td>function counter</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.watch.last.byte.timestamp}</td>
 * <td>time gauge, Unix time</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.watch.last.bookmark.timestamp}</td>
 * <td>time gauge, Unix time</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code informer.watch.silent.restarts}</td>
 * <td>function counter</td>
 * <td>{@code informer.objects.undecodable}</td>
 * <td>gauge</td>
 * <td></td>
 * </tr>
 * </table>
 */
public class InformerMetrics implements MeterBinder, DeliveryObserver, WatchSetObserver {

	/**
	 * The tag of the watched namespace, named as OpenTelemetry's semantic conventions
	 * name a Kubernetes object's namespace; {@code k8s_namespace_name} in Prometheus.
	 */
	public static final String NAMESPACE_TAG = "k8s.namespace.name";

	/**
	 * The relist reasons every watch has a counter for.
	 */
	static final List<RelistReason> RELIST_REASONS = List.of(RelistReason.GONE, RelistReason.ERROR, RelistReason.MANUAL,
			RelistReason.STOPPED, RelistReason.FLAPPING, RelistReason.STALLED);

	private final WatchRegistry registry;

	private final Map<WatchKey, Map<EventType, List<Timer>>> listenerTimers = new ConcurrentHashMap<>();

	private final Set<WatchedInformer<?>> observed = ConcurrentHashMap.newKeySet();

	private final List<MeterRegistry> boundTo = new CopyOnWriteArrayList<>();

	/** The meters of each watch, removed when its namespace leaves a selection. */
	private final Map<WatchKey, List<Meter>> meters = new ConcurrentHashMap<>();

	/**
	 * Create the meters' binder.
	 * @param registry the informers
	 */
	public InformerMetrics(WatchRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void bindTo(MeterRegistry meters) {
		this.boundTo.add(meters);
		for (WatchedInformer<?> informer : this.registry.informers()) {
			for (Watch status : informer.getWatches()) {
				bind(meters, informer, status);
			}
			NamespaceSelectionMeters.bind(meters, informer);
			if (this.observed.add(informer)) {
				informer.addDeliveryObserver(this);
				informer.addWatchSetObserver(this);
			}
		}
	}

	/**
	 * Register the meters of a watch added at runtime, in every registry bound.
	 * @param informer the informer
	 * @param watch the watch
	 */
	@Override
	public void watchAdded(WatchedInformer<?> informer, Watch watch) {
		this.boundTo.forEach((meters) -> bind(meters, informer, watch));
	}

	/**
	 * Remove the meters of a watch removed at runtime, from every registry bound, so that
	 * namespaces that come and go leave no meter behind.
	 * @param informer the informer
	 * @param watch the watch
	 */
	@Override
	public void watchRemoved(WatchedInformer<?> informer, Watch watch) {
		WatchKey key = new WatchKey(informer.getName(), watch.getNamespace());
		this.listenerTimers.remove(key);
		List<Meter> removed = this.meters.remove(key);
		if (removed != null) {
			for (Meter meter : removed) {
				this.boundTo.forEach((meters) -> meters.remove(meter));
			}
		}
	}

	private void bind(MeterRegistry meters, WatchedInformer<?> informer, Watch status) {
		List<Meter> registered = this.meters.computeIfAbsent(new WatchKey(informer.getName(), status.getNamespace()),
				(key) -> new CopyOnWriteArrayList<>());
		Tags tags = tags(informer, status);
		ScrapeSnapshot scrape = new ScrapeSnapshot(meters.config().clock());
		for (EventType type : EventType.values()) {
			registered.add(FunctionCounter
				.builder("informer.events", status, scrape.value((snapshot) -> snapshot.events().count(type)))
				.description("Events delivered to listeners")
				.baseUnit("events")
				.tags(tags)
				.tag("type", type.tagValue())
				.register(meters));
			Timer timer = Timer.builder("informer.listener.duration")
				.description("Time listeners took for one event, together")
				.tags(tags)
				.tag("type", type.tagValue())
				.register(meters);
			registered.add(timer);
			this.listenerTimers
				.computeIfAbsent(new WatchKey(informer.getName(), status.getNamespace()),
						(key) -> new ConcurrentHashMap<>())
				.computeIfAbsent(type, (key) -> new CopyOnWriteArrayList<>())
				.add(timer);
		}
		registered.add(Gauge.builder("informer.cache.size", status, scrape.value((snapshot) -> snapshot.cache().size()))
			.description("Objects in the cache")
			.baseUnit("objects")
			.tags(tags)
			.register(meters));
		registered.add(Gauge
			.builder("informer.watching", status, scrape.value((snapshot) -> snapshot.connection().watching() ? 1 : 0))
			.description("Whether the watch is open (1) or not (0)")
			.tags(tags)
			.register(meters));
		registered.add(Gauge
			.builder("informer.synced", status, scrape.value((snapshot) -> snapshot.lifecycle().isSynced() ? 1 : 0))
			.description("Whether the initial list has been delivered (1) or not (0)")
			.tags(tags)
			.register(meters));
		registered.add(FunctionCounter
			.builder("informer.watch.reconnects", status,
					scrape.value((snapshot) -> snapshot.connection().reconnects()))
			.description("Watches lost and resumed after the sync")
			.tags(tags)
			.register(meters));
		for (RelistReason reason : RELIST_REASONS) {
			registered.add(FunctionCounter
				.builder("informer.relists", status, scrape.value((snapshot) -> snapshot.lists().relistCount(reason)))
				.description("Lists after the initial one")
				.tags(tags)
				.tag("reason", reason.tagValue())
				.register(meters));
		}
		registered.add(FunctionTimer
			.builder("informer.list.duration", status, scrape.count((snapshot) -> snapshot.lists().count()),
					scrape.value((snapshot) -> snapshot.lists().totalTime().toNanos()), TimeUnit.NANOSECONDS)
			.description("Time to list, initial list and relists")
			.tags(tags)
			.register(meters));
		registered.add(Gauge.builder("informer.list.items", status, scrape.value(InformerMetrics::lastListItems))
			.description("Objects cached after the last list")
			.baseUnit("objects")
			.tags(tags)
			.register(meters));
		registered.add(FunctionTimer
			.builder("informer.resync.duration", status, scrape.count((snapshot) -> snapshot.resync().cycles()),
					scrape.value((snapshot) -> snapshot.resync().totalTime().toNanos()), TimeUnit.NANOSECONDS)
			.description("Time from the first to the last event of each resync cycle")
			.tags(tags)
			.register(meters));
		registered.add(TimeGauge
			.builder("informer.resync.last.timestamp", status, TimeUnit.SECONDS,
					scrape.value((snapshot) -> unixSeconds(snapshot.resync().lastAt())))
			.description("When the last resync event was delivered, as Unix time")
			.tags(tags)
			.register(meters));
		registered.add(TimeGauge
			.builder("informer.event.last.timestamp", status, TimeUnit.SECONDS,
					scrape.value((snapshot) -> unixSeconds(snapshot.events().lastActivityAt())))
			.description("When the last event or bookmark arrived, as Unix time")
			.tags(tags)
			.register(meters));
		registered.add(Gauge
			.builder("informer.resource.version", status,
					scrape.value((snapshot) -> numeric(snapshot.cache().lastResourceVersion())))
			.description("Last resourceVersion seen, when numeric")
			.tags(tags)
			.register(meters));
		registered.add(Gauge
			.builder("informer.server.resource.version", status,
					scrape.value((snapshot) -> numeric(snapshot.lag().serverResourceVersion())))
			.description("The API server's resourceVersion at the last staleness check, when numeric")
			.tags(tags)
			.register(meters));
		registered.add(TimeGauge
			.builder("informer.store.lag", status, TimeUnit.SECONDS,
					scrape.value((snapshot) -> seconds(snapshot.lag().staleFor())))
			.description("How long the cache has been behind a resourceVersion the API server had when last "
					+ "checked; zero once it has reached it")
			.tags(tags)
			.register(meters));
		registered.add(FunctionCounter
			.builder("informer.staleness.checks", status, scrape.value((snapshot) -> snapshot.lag().checks()))
			.description("Reads of the API server's resourceVersion (one request each)")
			.tags(tags)
			.register(meters));
		registered.add(FunctionCounter
			.builder("informer.staleness.check.failures", status,
					scrape.value((snapshot) -> snapshot.lag().checkFailures()))
			.description("Reads of the API server's resourceVersion that failed")
			.tags(tags)
			.register(meters));
		registered.add(FunctionCounter
			.builder("informer.events.filtered", status, scrape.value((snapshot) -> snapshot.events().filtered()))
			.description("Updates cached but not delivered: on-change found none of its parts changed")
			// no base unit: Prometheus would append it
			// (informer_events_filtered_events_total);
			// a counter of events under informer.events is informer_events_<what>_total
			.tags(tags)
			.register(meters));
		registered.add(FunctionCounter
			.builder("informer.listener.errors", status,
					scrape.value((snapshot) -> snapshot.events().listenerFailures()))
			.description("Listener invocations that threw")
			.tags(tags)
			.register(meters));
		registered.add(Gauge.builder("informer.backlog", status, scrape.value((snapshot) -> snapshot.cache().backlog()))
			.description("Changes cached but not yet delivered to listeners")
			.baseUnit("events")
			.tags(tags)
			.register(meters));
		registered.add(FunctionCounter
			.builder("informer.events.coalesced", status, scrape.value((snapshot) -> snapshot.cache().coalesced()))
			.description("Changes folded into a later change of the same object, the backlog being at "
					+ "informer.listeners.max-backlog")
			.tags(tags)
			.register(meters));
		registered.add(FunctionCounter
			.builder("informer.listener.executor.rejections", status,
					scrape.value((snapshot) -> snapshot.cache().rejected()))
			.description("Turns of delivery the listener executor rejected, each retried after a backoff")
			.tags(tags)
			.register(meters));
		registered.add(TimeGauge
			.builder("informer.watch.last.byte.timestamp", status, TimeUnit.SECONDS,
					scrape.value((snapshot) -> unixSeconds(snapshot.liveness().lastByteAt())))
			.description("When the watch connection last opened or an event or bookmark last arrived on it, "
					+ "as Unix time")
			.tags(tags)
			.register(meters));
		registered.add(TimeGauge
			.builder("informer.watch.last.bookmark.timestamp", status, TimeUnit.SECONDS,
					scrape.value((snapshot) -> unixSeconds(snapshot.liveness().lastBookmarkAt())))
			.description("When the last bookmark arrived on the watch connection, as Unix time")
			.tags(tags)
			.register(meters));
		registered.add(FunctionCounter
			.builder("informer.watch.silent.restarts", status,
					scrape.value((snapshot) -> snapshot.liveness().silentRestarts()))
			.description("Watch connections ended because nothing arrived on them for longer than "
					+ "informer.reliability.restart-silent-watch-after")
			.tags(tags)
			.register(meters));
		registered.add(Gauge
			.builder("informer.objects.undecodable", status,
					scrape.value((snapshot) -> snapshot.errors().undecodable().size()))
			.description("Objects skipped because they do not decode into the informer's class, "
					+ "until a version of each decodes")
			.baseUnit("objects")
			.tags(tags)
			.register(meters));
	}

	@Override
	public void delivered(String informer, @Nullable String namespace, EventType type, Duration duration,
			int failedListeners) {
		Map<EventType, List<Timer>> byType = this.listenerTimers.get(new WatchKey(informer, namespace));
		List<Timer> timers = (byType != null) ? byType.get(type) : null;
		if (timers != null) {
			for (Timer timer : timers) {
				timer.record(duration);
			}
		}
	}

	/**
	 * Return the tags of one watch.
	 * @param informer the informer
	 * @param status one of its watches
	 * @return the {@code informer} and {@value #NAMESPACE_TAG} tags
	 */
	static Tags tags(Informer<?> informer, Watch status) {
		String namespace = status.getNamespace();
		return Tags.of("informer", informer.getName(), NAMESPACE_TAG, (namespace != null) ? namespace : "*");
	}

	private static double unixSeconds(@Nullable Instant instant) {
		return (instant != null) ? instant.toEpochMilli() / 1000.0 : Double.NaN;
	}

	private static double seconds(@Nullable Duration duration) {
		return (duration != null) ? duration.toMillis() / 1000.0 : Double.NaN;
	}

	private static double lastListItems(WatchSnapshot snapshot) {
		ListCycle list = snapshot.lists().last();
		return (list != null) ? list.items() : Double.NaN;
	}

	private static double numeric(@Nullable String resourceVersion) {
		if (resourceVersion == null) {
			return Double.NaN;
		}
		try {
			return Long.parseLong(resourceVersion);
		}
		catch (NumberFormatException ex) {
			return Double.NaN;
		}
	}

	private record WatchKey(String informer, @Nullable String namespace) {

	}

}
