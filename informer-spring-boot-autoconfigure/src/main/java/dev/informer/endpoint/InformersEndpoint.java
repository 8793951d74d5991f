package dev.informer.endpoint;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.core.task.SimpleAsyncTaskExecutor;

import dev.informer.Informer;
import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.InformerState;
import dev.informer.watch.DeliveryDetails;
import dev.informer.watch.DeliveryHealthPolicy;
import dev.informer.watch.DeliverySnapshot;
import dev.informer.watch.DeliveryStatusSource;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchDetails;
import dev.informer.watch.WatchHealth;
import dev.informer.watch.WatchHealthPolicy;
import dev.informer.watch.WatchRegistry;
import dev.informer.watch.WatchSnapshot;
import dev.informer.watch.WatchedInformer;

/**
 * The {@code informers} actuator endpoint: every informer's declaration and the full
 * state of each of its watches (what health reports, always with details), and a
 * {@code relist} action that rebuilds an informer's cache from a fresh list.
 * <ul>
 * <li>{@code GET /actuator/informers}: all informers</li>
 * <li>{@code GET /actuator/informers/{name}}: one informer, 404 when there is none of
 * that name</li>
 * <li>{@code POST /actuator/informers/{name}} with {@code {"action": "relist"}}: start a
 * relist (see {@link Informer#relist()}) in the background, 202; 409 while a relist
 * requested here still runs for that informer; 400 for an unknown name or action</li>
 * </ul>
 * The endpoint is read-only unless
 * {@code management.endpoint.informers.access=unrestricted}: each relist costs the API
 * server a consistent list per namespace.
 * <p>
 * When an informer is in {@code leader} or {@code sharded} mode, {@code GET} of all
 * informers also has a {@code delivery} section: this replica's role, Leases, owned
 * ranges and members, as health reports them.
 */
@Endpoint(id = "informers", defaultAccess = Access.READ_ONLY)
public class InformersEndpoint {

	/**
	 * The action that relists an informer.
	 */
	public static final String RELIST = "relist";

	/**
	 * The outcome of a relist that was started.
	 */
	public static final String STARTED = "started";

	/**
	 * The outcome of a relist request refused because one is still running.
	 */
	public static final String ALREADY_RUNNING = "already running";

	private static final int STATUS_ACCEPTED = 202;

	private static final int STATUS_CONFLICT = 409;

	private static final Log logger = LogFactory.getLog(InformersEndpoint.class);

	private final WatchRegistry registry;

	private final WatchHealthPolicy policy;

	private final Clock clock;

	private final Executor executor;

	private final @Nullable DeliveryStatusSource delivery;

	private final @Nullable DeliveryHealthPolicy deliveryPolicy;

	private final Instant startedAt;

	/** The relists requested here and not finished yet, by informer name. */
	private final ConcurrentMap<String, CompletableFuture<Void>> relists = new ConcurrentHashMap<>();

	/**
	 * Create the endpoint, starting each relist on a thread of its own (at most one per
	 * informer at a time).
	 * @param registry the informers
	 * @param policy the health rules, the ones health uses
	 * @param clock the clock, the one the informers use
	 */
	public InformersEndpoint(WatchRegistry registry, WatchHealthPolicy policy, Clock clock) {
		this(registry, policy, clock, relistExecutor());
	}

	/**
	 * Create the endpoint.
	 * @param registry the informers
	 * @param policy the health rules, the ones health uses
	 * @param clock the clock, the one the informers use
	 * @param executor what starts a relist, never on the request's thread: starting one
	 * may wait for a listener to finish the event it is handling
	 */
	public InformersEndpoint(WatchRegistry registry, WatchHealthPolicy policy, Clock clock, Executor executor) {
		this(registry, policy, clock, executor, null, null);
	}

	/**
	 * Create the endpoint with a {@code delivery} section, shown while any informer is in
	 * {@code leader} or {@code sharded} mode.
	 * @param registry the informers
	 * @param policy the health rules, the ones health uses
	 * @param clock the clock, the one the informers use
	 * @param delivery the state of delivery across replicas
	 * @param deliveryPolicy the health rules of delivery, the ones health uses
	 */
	public InformersEndpoint(WatchRegistry registry, WatchHealthPolicy policy, Clock clock,
			DeliveryStatusSource delivery, DeliveryHealthPolicy deliveryPolicy) {
		this(registry, policy, clock, relistExecutor(), delivery, deliveryPolicy);
	}

	private InformersEndpoint(WatchRegistry registry, WatchHealthPolicy policy, Clock clock, Executor executor,
			@Nullable DeliveryStatusSource delivery, @Nullable DeliveryHealthPolicy deliveryPolicy) {
		this.registry = registry;
		this.policy = policy;
		this.clock = clock;
		this.executor = executor;
		this.delivery = delivery;
		this.deliveryPolicy = deliveryPolicy;
		this.startedAt = clock.instant();
	}

	private static Executor relistExecutor() {
		SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor("informer-relist-");
		executor.setDaemon(true);
		return executor;
	}

	/**
	 * Describe every informer.
	 * @return the informers by name
	 */
	@ReadOperation
	public InformersDescriptor informers() {
		Map<String, InformerDescriptor> informers = new LinkedHashMap<>();
		for (WatchedInformer<?> informer : this.registry.informers()) {
			informers.put(informer.getName(), describe(informer));
		}
		return new InformersDescriptor(informers, delivery());
	}

	private @Nullable Map<String, Object> delivery() {
		if (this.delivery == null || this.deliveryPolicy == null) {
			return null;
		}
		DeliverySnapshot snapshot = this.delivery.snapshot();
		if (!DeliveryDetails.isShared(snapshot)) {
			return null;
		}
		WatchHealth health = this.deliveryPolicy.evaluate(snapshot, this.startedAt);
		Map<String, Object> delivery = new LinkedHashMap<>();
		delivery.put("status", health.level().name());
		if (health.reason() != null) {
			delivery.put("reason", health.reason());
		}
		delivery.putAll(DeliveryDetails.of(snapshot));
		delivery.put("ownedObjects", this.delivery.ownedObjects());
		return delivery;
	}

	/**
	 * Describe one informer.
	 * @param name the informer's name
	 * @return the informer, {@code null} (404) when there is none of that name
	 */
	@ReadOperation
	public @Nullable InformerDescriptor informer(@Selector String name) {
		return this.registry.names().contains(name) ? describe(this.registry.informer(name)) : null;
	}

	/**
	 * Act on one informer: start a relist, unless one requested here still runs for it.
	 * Returns without waiting for the relist; follow it in {@code watches[].lastList}.
	 * @param name the informer's name
	 * @param action the action, {@value #RELIST}
	 * @return what was done: {@value #STARTED} (202), or {@value #ALREADY_RUNNING} (409)
	 */
	@WriteOperation
	public WebEndpointResponse<ActionDescriptor> act(@Selector String name, String action) {
		if (!this.registry.names().contains(name)) {
			throw new InvalidEndpointRequestException(
					"No informer named '" + name + "'; informers: " + String.join(", ", this.registry.names()),
					"Unknown informer");
		}
		if (!RELIST.equals(action)) {
			throw new InvalidEndpointRequestException(
					"Unknown action '" + action + "' for informer '" + name + "'; actions: " + RELIST,
					"Unknown action");
		}
		WatchedInformer<?> informer = this.registry.informer(name);
		if (!isRunning(informer)) {
			throw new InvalidEndpointRequestException("Informer '" + name + "' is not running", "Informer not running");
		}
		CompletableFuture<Void> relist = new CompletableFuture<>();
		if (this.relists.putIfAbsent(name, relist) != null) {
			return new WebEndpointResponse<>(new ActionDescriptor(name, action, ALREADY_RUNNING), STATUS_CONFLICT);
		}
		relist.whenComplete((result, ex) -> this.relists.remove(name, relist));
		try {
			this.executor.execute(() -> relist(informer, relist));
		}
		catch (RejectedExecutionException ex) {
			relist.completeExceptionally(ex);
			throw new IllegalStateException("Cannot start a relist of informer '" + name + "'", ex);
		}
		return new WebEndpointResponse<>(new ActionDescriptor(name, action, STARTED), STATUS_ACCEPTED);
	}

	private static boolean isRunning(WatchedInformer<?> informer) {
		return informer.getStartedAt() != null
				&& informer.getWatches().stream().noneMatch((status) -> status.getState() == InformerState.STOPPED);
	}

	private static void relist(Informer<?> informer, CompletableFuture<Void> relist) {
		try {
			informer.relist().whenComplete((result, ex) -> {
				if (ex != null) {
					failed(informer, ex);
					relist.completeExceptionally(ex);
				}
				else {
					relist.complete(null);
				}
			});
		}
		catch (RuntimeException ex) {
			failed(informer, ex);
			relist.completeExceptionally(ex);
		}
	}

	private static void failed(Informer<?> informer, Throwable ex) {
		Throwable cause = KubernetesErrors.unwrap(ex);
		if (cause instanceof CancellationException) {
			// replaced or stopped before it listed: nothing went wrong
			logger.debug("Relist of informer '" + informer.getName() + "' was superseded");
		}
		else {
			logger.warn("Relist of informer '" + informer.getName() + "' failed: " + KubernetesErrors.reason(cause)
					+ ": " + KubernetesErrors.message(cause));
		}
	}

	private InformerDescriptor describe(WatchedInformer<?> informer) {
		Instant now = this.clock.instant();
		List<Map<String, Object>> watches = new ArrayList<>();
		WatchHealth.Level worst = WatchHealth.Level.UP;
		for (Watch status : informer.getWatches()) {
			WatchSnapshot snapshot = status.snapshot();
			WatchHealth health = this.policy.evaluate(informer, snapshot, now);
			Map<String, Object> watch = new LinkedHashMap<>();
			watch.put("status", health.level().name());
			if (health.reason() != null) {
				watch.put("reason", health.reason());
			}
			watch.putAll(WatchDetails.of(informer, snapshot));
			watches.add(watch);
			if (health.level().compareTo(worst) > 0) {
				worst = health.level();
			}
		}
		Map<String, Object> declaration = declaration(informer.getDefinition());
		@Nullable Map<String, Object> namespaceSelection = null;
		if (informer.getDefinition().getDeclaration().getNamespaceSelector() != null) {
			// the namespaces the selector matches now
			declaration.put("selectedNamespaces",
					informer.getWatches().stream().map(Watch::getNamespace).filter(Objects::nonNull).toList());
			Watch selection = informer.getNamespaceWatch();
			if (selection != null) {
				WatchSnapshot snapshot = selection.snapshot();
				WatchHealth health = this.policy.evaluate(informer, snapshot, now);
				namespaceSelection = new LinkedHashMap<>();
				namespaceSelection.put("status", health.level().name());
				if (health.reason() != null) {
					namespaceSelection.put("reason", health.reason());
				}
				namespaceSelection.putAll(WatchDetails.ofNamespaceSelection(informer, snapshot));
				if (health.level().compareTo(worst) > 0) {
					worst = health.level();
				}
			}
		}
		return new InformerDescriptor(worst.name(), declaration, informer.getCache().size(), watches,
				namespaceSelection);
	}

	private static Map<String, Object> declaration(InformerDefinition<?> definition) {
		InformerDeclaration declaration = definition.getDeclaration();
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("apiVersion", declaration.getApiVersion());
		result.put("kind", declaration.getKind());
		result.put("plural", definition.getPlural());
		result.put("namespaced", definition.isNamespaced());
		result.put("type", definition.getResourceClass().getName());
		result.put("namespaces", declaration.getNamespaces());
		if (declaration.getNamespaceSelector() != null) {
			result.put("namespaceSelector", declaration.getNamespaceSelector());
		}
		if (declaration.getLabelSelector() != null) {
			result.put("labelSelector", declaration.getLabelSelector());
		}
		if (declaration.getFieldSelector() != null) {
			result.put("fieldSelector", declaration.getFieldSelector());
		}
		result.put("resyncPeriod", declaration.getResyncPeriod().toString());
		result.put("listPageSize", declaration.getListPageSize());
		result.put("stripManagedFields", declaration.isStripManagedFields());
		if (!declaration.getOnChange().isEmpty()) {
			result.put("onChange", declaration.getOnChange());
		}
		if (!declaration.getPrune().isEmpty()) {
			result.put("prune", declaration.getPrune().stream().map(Object::toString).toList());
		}
		if (!declaration.getIndexes().isEmpty()) {
			Map<String, String> indexes = new LinkedHashMap<>();
			declaration.getIndexes().forEach((name, path) -> indexes.put(name, path.toString()));
			result.put("indexes", indexes);
		}
		return result;
	}

	/**
	 * All informers.
	 *
	 * @param informers the informers by name, in declaration order
	 * @param delivery this replica's part in delivery across replicas: {@code status},
	 * {@code reason}, the health details of delivery and {@code ownedObjects};
	 * {@code null} (and absent from the JSON) when every informer is in {@code all} mode
	 */
	public record InformersDescriptor(Map<String, InformerDescriptor> informers,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Map<String, Object> delivery)
			implements
				OperationResponseBody {

		/**
		 * Describe informers without a delivery section.
		 * @param informers the informers by name, in declaration order
		 */
		public InformersDescriptor(Map<String, InformerDescriptor> informers) {
			this(informers, null);
		}

	}

	/**
	 * One informer.
	 *
	 * @param status the worst health of its watches: {@code UP}, {@code OUT_OF_SERVICE}
	 * or {@code DOWN}
	 * @param declaration what it watches, as declared and resolved
	 * @param cacheSize the objects cached over all its watches
	 * @param watches the state of each watch (one per declared namespace, or one for all)
	 * @param namespaceSelection with a {@code namespace-selector}, the state of the watch
	 * on Namespaces that chooses the namespaces (its {@code status} counts in the
	 * informer's)
	 */
	public record InformerDescriptor(String status, Map<String, Object> declaration, int cacheSize,
			List<Map<String, Object>> watches,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Map<String, Object> namespaceSelection)
			implements
				OperationResponseBody {

	}

	/**
	 * The outcome of an action.
	 *
	 * @param informer the informer's name
	 * @param action the action
	 * @param outcome {@value #STARTED}: the relist runs in the background, follow it in
	 * {@code watches[].lastList}; {@value #ALREADY_RUNNING}: a relist requested earlier
	 * has not finished, none was started
	 */
	public record ActionDescriptor(String informer, String action, String outcome) implements OperationResponseBody {

	}

}
