package dev.informer.endpoint;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import dev.informer.core.InformerDeclaration;
import dev.informer.core.InformerDefinition;
import dev.informer.core.InformerRegistry;
import dev.informer.core.ResourceInformer;
import dev.informer.core.WatchStatus;
import dev.informer.health.WatchDetails;
import dev.informer.health.WatchHealth;
import dev.informer.health.WatchHealthPolicy;

/**
 * The {@code informers} actuator endpoint: every informer's declaration and the full state of
 * each of its watches (what health reports, always with details), and a {@code relist}
 * action that rebuilds an informer's cache from a fresh list.
 * <ul>
 * <li>{@code GET /actuator/informers}: all informers</li>
 * <li>{@code GET /actuator/informers/{name}}: one informer, 404 when there is none of that
 * name</li>
 * <li>{@code POST /actuator/informers/{name}} with {@code {"action": "relist"}}: start a
 * relist (see {@link ResourceInformer#relist()}); 400 for an unknown name or action</li>
 * </ul>
 */
@Endpoint(id = "informers")
public class InformersEndpoint {

	/**
	 * The action that relists an informer.
	 */
	public static final String RELIST = "relist";

	private final InformerRegistry registry;

	private final WatchHealthPolicy policy;

	private final Clock clock;

	/**
	 * Create the endpoint.
	 * @param registry the informers
	 * @param policy the health rules, the ones health uses
	 * @param clock the clock, the one the informers use
	 */
	public InformersEndpoint(InformerRegistry registry, WatchHealthPolicy policy, Clock clock) {
		this.registry = registry;
		this.policy = policy;
		this.clock = clock;
	}

	/**
	 * Describe every informer.
	 * @return the informers by name
	 */
	@ReadOperation
	public InformersDescriptor informers() {
		Map<String, InformerDescriptor> informers = new LinkedHashMap<>();
		for (ResourceInformer<?> informer : this.registry.informers()) {
			informers.put(informer.getName(), describe(informer));
		}
		return new InformersDescriptor(informers);
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
	 * Act on one informer.
	 * @param name the informer's name
	 * @param action the action, {@value #RELIST}
	 * @return what was done
	 */
	@WriteOperation
	public ActionDescriptor act(@Selector String name, String action) {
		if (!this.registry.names().contains(name)) {
			throw new InvalidEndpointRequestException("No informer named '" + name + "'; informers: "
					+ String.join(", ", this.registry.names()), "Unknown informer");
		}
		if (!RELIST.equals(action)) {
			throw new InvalidEndpointRequestException("Unknown action '" + action + "' for informer '" + name
					+ "'; actions: " + RELIST, "Unknown action");
		}
		ResourceInformer<?> informer = this.registry.informer(name);
		try {
			informer.relist();
		}
		catch (IllegalStateException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), "Informer not running");
		}
		return new ActionDescriptor(name, action, "started");
	}

	private InformerDescriptor describe(ResourceInformer<?> informer) {
		Instant now = this.clock.instant();
		List<Map<String, Object>> watches = new ArrayList<>();
		WatchHealth.Level worst = WatchHealth.Level.UP;
		for (WatchStatus status : informer.getStatuses()) {
			WatchHealth health = this.policy.evaluate(informer, status, now);
			Map<String, Object> watch = new LinkedHashMap<>();
			watch.put("status", health.level().name());
			if (health.reason() != null) {
				watch.put("reason", health.reason());
			}
			watch.putAll(WatchDetails.of(informer, status));
			watches.add(watch);
			if (health.level().compareTo(worst) > 0) {
				worst = health.level();
			}
		}
		return new InformerDescriptor(worst.name(), declaration(informer.getDefinition()), informer.getCache().size(),
				watches);
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
		if (declaration.getLabelSelector() != null) {
			result.put("labelSelector", declaration.getLabelSelector());
		}
		if (declaration.getFieldSelector() != null) {
			result.put("fieldSelector", declaration.getFieldSelector());
		}
		result.put("resyncPeriod", declaration.getResyncPeriod().toString());
		result.put("listPageSize", declaration.getListPageSize());
		result.put("stripManagedFields", declaration.isStripManagedFields());
		return result;
	}

	/**
	 * All informers.
	 *
	 * @param informers the informers by name, in declaration order
	 */
	public record InformersDescriptor(Map<String, InformerDescriptor> informers) implements OperationResponseBody {

	}

	/**
	 * One informer.
	 *
	 * @param status the worst health of its watches: {@code UP}, {@code OUT_OF_SERVICE} or
	 * {@code DOWN}
	 * @param declaration what it watches, as declared and resolved
	 * @param cacheSize the objects cached over all its watches
	 * @param watches the state of each watch (one per declared namespace, or one for all)
	 */
	public record InformerDescriptor(String status, Map<String, Object> declaration, int cacheSize,
			List<Map<String, Object>> watches) implements OperationResponseBody {

	}

	/**
	 * The outcome of an action.
	 *
	 * @param informer the informer's name
	 * @param action the action
	 * @param outcome {@code started}: the relist runs in the background; follow it in
	 * {@code watches[].lastList}
	 */
	public record ActionDescriptor(String informer, String action, String outcome) implements OperationResponseBody {

	}

}
