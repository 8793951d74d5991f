package dev.informer.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

import dev.informer.CacheMode;
import dev.informer.DeclarationRules;
import dev.informer.DeliveryMode;
import dev.informer.runtime.listeners.BacklogOptions;
import dev.informer.runtime.replicas.DeliveryOptions;

/**
 * Informers declared in configuration, under the {@code informer} prefix. Values that
 * cannot work fail startup once bound, naming the property, the value and the fix: the
 * defaults that declarations inherit by the {@link DeclarationRules} (as an
 * {@link dev.informer.InvalidInformerDeclarationException}), the starter's own settings
 * here (as an {@link InvalidConfigurationPropertyValueException}). Each declaration is
 * checked by the same rules when the informers are created.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("informer")
public class InformerProperties implements InitializingBean, EnvironmentAware {

	/**
	 * A Kubernetes object name (DNS subdomain), as Lease names must be.
	 */
	static final Pattern LEASE_NAME = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	/**
	 * The longest group: a label value has at most 63 characters.
	 */
	static final int MAX_GROUP_LENGTH = 63;

	static final String LISTENERS = "informer.listeners.";

	static final String REPLICAS = "informer.replicas.";

	static final String DELIVERY = "informer.delivery.";

	static final String RESOURCES = "informer.resources.";

	/**
	 * Whether to start the declared informers.
	 */
	private boolean enabled = true;

	/**
	 * Default resync period: how often every cached object is re-published as an updated
	 * event flagged as resync. 0 disables resync.
	 */
	private Duration resyncPeriod = Duration.ZERO;

	/**
	 * Default page size of list requests. 0 lists in one request served from the API
	 * server's watch cache (cheapest for the server); set a page size for very large
	 * collections.
	 */
	private long listPageSize;

	/**
	 * Whether to drop metadata.managedFields from cached objects and events by default.
	 * It is often half of an object's size and rarely needed by listeners.
	 */
	private boolean stripManagedFields = true;

	/**
	 * Whether informers get their initial state from a watch-list (a watch with
	 * sendInitialEvents=true, streamed from the API server's watch cache) instead of a
	 * list. An API server that refuses it gets a list and a watch instead, with a
	 * warning.
	 */
	private boolean watchList;

	/**
	 * Whether informers ask the API server for gzip-compressed lists (Accept-Encoding:
	 * gzip): about a twelfth of the bytes on the wire, and less CPU on both sides than
	 * encrypting the uncompressed list. The API server compresses only large responses,
	 * and never watches.
	 */
	private boolean compressLists = true;

	private final Startup startup = new Startup();

	private final Reliability reliability = new Reliability();

	private final Health health = new Health();

	private final Listeners listeners = new Listeners();

	private final Replicas replicas = new Replicas();

	private final Delivery delivery = new Delivery();

	private final Events events = new Events();

	/**
	 * Informers by name. The name is used in events, health, metrics and the actuator
	 * endpoint.
	 */
	private final Map<String, Resource> resources = new LinkedHashMap<>();

	private final DeprecatedAliases aliases = new DeprecatedAliases();

	private @Nullable Environment environment;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Duration getResyncPeriod() {
		return this.resyncPeriod;
	}

	public void setResyncPeriod(Duration resyncPeriod) {
		this.resyncPeriod = resyncPeriod;
	}

	public long getListPageSize() {
		return this.listPageSize;
	}

	public void setListPageSize(long listPageSize) {
		this.listPageSize = listPageSize;
	}

	public boolean isStripManagedFields() {
		return this.stripManagedFields;
	}

	public void setStripManagedFields(boolean stripManagedFields) {
		this.stripManagedFields = stripManagedFields;
	}

	public boolean isWatchList() {
		return this.watchList;
	}

	public void setWatchList(boolean watchList) {
		this.watchList = watchList;
	}

	public boolean isCompressLists() {
		return this.compressLists;
	}

	public void setCompressLists(boolean compressLists) {
		this.compressLists = compressLists;
	}

	public Startup getStartup() {
		return this.startup;
	}

	public Reliability getReliability() {
		return this.reliability;
	}

	public Health getHealth() {
		return this.health;
	}

	public Listeners getListeners() {
		return this.listeners;
	}

	public Replicas getReplicas() {
		return this.replicas;
	}

	/**
	 * Return the deprecated aliases {@code informer.delivery.*}.
	 * @return the aliases
	 * @deprecated since 0.1.0 for removal in the next release, in favour of
	 * {@link #getListeners()} and {@link #getReplicas()}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public Delivery getDelivery() {
		return this.delivery;
	}

	public Events getEvents() {
		return this.events;
	}

	public Map<String, Resource> getResources() {
		return this.resources;
	}

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void afterPropertiesSet() {
		// first: a misspelt key explains the other values better than any rule on them
		if (this.environment != null) {
			InformerPropertyKeys.check(ConfigurationPropertySources.get(this.environment));
		}
		DeclarationRules.checkDefaults(this.resyncPeriod, this.listPageSize);
		requirePositive("informer.startup.timeout", this.startup.getTimeout(), "for example '60s'; to start "
				+ "without waiting for informers set informer.startup.wait-for-sync=false instead");
		requirePositive("informer.health.watch-loss-grace", this.health.getWatchLossGrace(),
				"for example '90s' "
						+ "(the default): fabric8 reopens a watch routinely and, after failures, with a backoff of up "
						+ "to 32 s, so a shorter grace makes health flap");
		Duration stalenessCheckPeriod = this.health.getStalenessCheckPeriod();
		if (stalenessCheckPeriod.isNegative()
				|| (!stalenessCheckPeriod.isZero() && stalenessCheckPeriod.compareTo(Duration.ofSeconds(1)) < 0)) {
			throw invalid("informer.health.staleness-check-period", stalenessCheckPeriod,
					"must be 0 (no check) or at least 1s: each check is one request per watch; for example '1m' "
							+ "(the default)");
		}
		this.reliability.validate();
		requirePositive("informer.health.stale-after", this.health.getStaleAfter(),
				"for example '65s' (the default), above the API server's bookmark interval of one minute");
		this.delivery.applyTo(this.listeners, this.replicas, this.aliases);
		this.resources.forEach((name, resource) -> resource.applyAliases(RESOURCES + name + ".", this.aliases));
		this.listeners.validate(this.aliases::nameOf);
		this.replicas.validate(this.aliases::nameOf);
		Duration restart = this.reliability.getRestartSilentWatchAfter();
		if (this.replicas.getStepDownStaleAfter().compareTo(restart) <= 0) {
			throw invalid(REPLICAS + "step-down-stale-after", this.replicas.getStepDownStaleAfter(),
					"must be longer than informer.reliability.restart-silent-watch-after (" + simple(restart)
							+ "), so that a silent watch is restarted before this replica gives up its part; "
							+ "for example '2m' (the default) with '75s'");
		}
	}

	/**
	 * Return the name of the property a value was set with: the deprecated alias the
	 * value came from, else the property itself.
	 * @param property the name of a property
	 * @return the name the user set it by
	 */
	String nameOf(String property) {
		return this.aliases.nameOf(property);
	}

	private static void requirePositive(String property, Duration value, String fix) {
		if (value.isNegative() || value.isZero()) {
			throw invalid(property, value, "must be a positive duration, " + fix);
		}
	}

	private static String simple(Duration duration) {
		return (duration.toMillis() % 1000 == 0) ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
	}

	private static InvalidConfigurationPropertyValueException invalid(String property, Object value, String reason) {
		// a duration as the user writes it ('-1s'), not in ISO-8601 ('PT-1S')
		Object written = (value instanceof Duration duration) ? simple(duration) : value;
		return new InvalidConfigurationPropertyValueException(property, written, reason);
	}

	/**
	 * How informer events reach the application's listeners.
	 *
	 * @since 0.1.0
	 */
	public static class Events {

		/**
		 * Whether the starter invokes @EventListener methods that only listen to informer
		 * events itself: their SpEL condition is compiled to bytecode after its first
		 * evaluations (as spring.expression.compiler.mode=mixed would, but for these
		 * conditions only) and a singleton bean is looked up once. When false, Spring's
		 * adapter interprets the condition and looks the bean up for every event.
		 */
		private boolean compileConditions = true;

		/**
		 * Whether to record an 'informer.event' observation (a span, with a tracer)
		 * around the delivery of each resource event to the listeners.
		 */
		private boolean observationEnabled;

		public boolean isObservationEnabled() {
			return this.observationEnabled;
		}

		public void setObservationEnabled(boolean observationEnabled) {
			this.observationEnabled = observationEnabled;
		}

		public boolean isCompileConditions() {
			return this.compileConditions;
		}

		public void setCompileConditions(boolean compileConditions) {
			this.compileConditions = compileConditions;
		}

	}

	/**
	 * How application startup waits for informers.
	 *
	 * @since 0.1.0
	 */
	public static class Startup {

		/**
		 * Whether startup waits until every informer has delivered its initial list.
		 */
		private boolean waitForSync = true;

		/**
		 * How long startup waits for informers to sync.
		 */
		private Duration timeout = Duration.ofSeconds(60);

		/**
		 * Whether startup fails when an informer has not synced within the timeout. When
		 * false the application starts and health reports the informer until it syncs.
		 */
		private boolean failOnTimeout = true;

		/**
		 * Whether startup fails at once when the API server denies the initial list (HTTP
		 * 401 or 403). When false the informer retries with backoff until access is
		 * granted. Only applies while startup waits for sync. With a namespace-selector
		 * it applies to the watch on Namespaces, not to the namespaces it chooses: those
		 * are retried, as their RoleBinding may come after their label.
		 */
		private boolean failOnForbidden = true;

		/**
		 * How many watches (one per informer and namespace) may list at once, initial
		 * lists, relists and replacements alike; the others wait for one to finish. Keeps
		 * hundreds of watches from sending hundreds of LISTs to the API server at the
		 * same moment. 0 for no cap.
		 */
		private int maxConcurrentLists = 10;

		public int getMaxConcurrentLists() {
			return this.maxConcurrentLists;
		}

		public void setMaxConcurrentLists(int maxConcurrentLists) {
			this.maxConcurrentLists = maxConcurrentLists;
		}

		public boolean isWaitForSync() {
			return this.waitForSync;
		}

		public void setWaitForSync(boolean waitForSync) {
			this.waitForSync = waitForSync;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public boolean isFailOnTimeout() {
			return this.failOnTimeout;
		}

		public void setFailOnTimeout(boolean failOnTimeout) {
			this.failOnTimeout = failOnTimeout;
		}

		public boolean isFailOnForbidden() {
			return this.failOnForbidden;
		}

		public void setFailOnForbidden(boolean failOnForbidden) {
			this.failOnForbidden = failOnForbidden;
		}

	}

	/**
	 * How resource events reach this replica's listeners: the threads that run them and
	 * the bound of what waits for them.
	 *
	 * @since 0.1.0
	 */
	public static class Listeners {

		/**
		 * The most threads that run listeners at once, over all informers. Events of one
		 * namespace always arrive in order, on one thread at a time; namespaces beyond
		 * this many wait for a thread.
		 */
		private int maxThreads = 8;

		/**
		 * The most changes one watch (an informer, or one of its namespaces) holds for
		 * its listeners, in fabric8's queue and the starter's together, before 'overflow'
		 * applies. Unbounded when not set: every change is delivered as it happened,
		 * however far listeners fall behind.
		 */
		private @Nullable Long maxBacklog;

		/**
		 * What happens once a watch's backlog reaches 'max-backlog': 'coalesce' (keep
		 * only the latest state of each object, health OUT_OF_SERVICE while at the bound)
		 * or 'fail' (stop the watch, health DOWN).
		 */
		private BacklogOptions.Overflow overflow = BacklogOptions.Overflow.COALESCE;

		/**
		 * The name of the Executor bean (a TaskExecutor such as
		 * 'applicationTaskExecutor') that runs listeners; each watch still runs on one of
		 * its threads at a time, in order. When not set: a virtual thread per task with
		 * 'spring.threads.virtual.enabled=true' on Java 21 or later, else the starter's
		 * own threads ('max-threads').
		 */
		private @Nullable String executor;

		// what was set, so that a deprecated alias can tell a setting from a default
		private final Set<String> assigned = new HashSet<>();

		void validate(UnaryOperator<String> names) {
			if (this.maxBacklog != null && this.maxBacklog < 1) {
				throw invalid(names.apply(LISTENERS + "max-backlog"), this.maxBacklog,
						"must be at least 1, for example '10000'; leave it unset for no bound");
			}
			if (this.maxThreads < 1) {
				throw invalid(names.apply(LISTENERS + "max-threads"), this.maxThreads,
						"must be at least 1, for example '8' (the default)");
			}
		}

		boolean isAssigned(String property) {
			return this.assigned.contains(property);
		}

		public int getMaxThreads() {
			return this.maxThreads;
		}

		public void setMaxThreads(int maxThreads) {
			this.maxThreads = maxThreads;
			this.assigned.add("max-threads");
		}

		public @Nullable Long getMaxBacklog() {
			return this.maxBacklog;
		}

		public void setMaxBacklog(@Nullable Long maxBacklog) {
			this.maxBacklog = maxBacklog;
			this.assigned.add("max-backlog");
		}

		public BacklogOptions.Overflow getOverflow() {
			return this.overflow;
		}

		public void setOverflow(BacklogOptions.Overflow overflow) {
			this.overflow = overflow;
			this.assigned.add("overflow");
		}

		public @Nullable String getExecutor() {
			return this.executor;
		}

		public void setExecutor(@Nullable String executor) {
			this.executor = executor;
			this.assigned.add("executor");
		}

		/**
		 * Return the backlog bound these properties set.
		 * @return the options
		 */
		public BacklogOptions backlogOptions() {
			return (this.maxBacklog != null) ? new BacklogOptions(this.maxBacklog, this.overflow)
					: BacklogOptions.UNBOUNDED;
		}

	}

	/**
	 * How the replicas of an application share the delivery of resource events, on
	 * Kubernetes Leases.
	 *
	 * @since 0.1.0
	 */
	public static class Replicas {

		/**
		 * Which replicas publish resource events: 'all' (every replica), 'leader' (only
		 * the holder of the group's Lease) or 'sharded' (each object by exactly one live
		 * member). Informers may override it with 'replicas.mode'.
		 */
		private DeliveryMode mode = DeliveryMode.ALL;

		/**
		 * The group the replicas form, and the name of its Leases. Defaults to
		 * 'spring.application.name'.
		 */
		private @Nullable String group;

		/**
		 * This replica's identity in the Leases. Defaults to the pod name (HOSTNAME),
		 * else the host name plus a random suffix.
		 */
		private @Nullable String identity;

		/**
		 * The namespace of the Leases. Defaults to the pod's namespace when running in a
		 * cluster, else 'default'.
		 */
		private @Nullable String leaseNamespace;

		/**
		 * How long a Lease lasts without renewal before another replica may take it.
		 * Whole seconds: a Lease stores its duration in seconds.
		 */
		private Duration leaseDuration = Duration.ofSeconds(15);

		/**
		 * How long a holder keeps trying to renew its Lease before it stops publishing.
		 * Shorter than the lease duration, so that a replica stops before another may
		 * take over, and longer than 2.2 retry periods (fabric8's longest wait between
		 * two attempts).
		 */
		private Duration renewDeadline = Duration.ofSeconds(10);

		/**
		 * How often Leases are renewed, tried and read.
		 */
		private Duration retryPeriod = Duration.ofSeconds(2);

		/**
		 * Whether sharded informers list and watch only their range when the API server
		 * serves shard selectors (feature gate ShardedListAndWatch). When off, or not
		 * served, each replica watches every object and publishes its range.
		 */
		private boolean serverSharding = true;

		/**
		 * Whether the 'delivery' health component is part of the readiness group.
		 */
		private boolean readiness;

		/**
		 * How long a watch of a 'leader' or 'sharded' informer may stay behind (not
		 * watching, silent for longer than 'informer.health.stale-after', or its cache
		 * behind the API server's resourceVersion) before this replica gives up its part
		 * (the group's Lease, or its member Lease and range) until its watches are
		 * current again. Longer than 'informer.reliability.restart-silent-watch-after',
		 * so that a silent watch is restarted first.
		 */
		private Duration stepDownStaleAfter = Duration.ofMinutes(2);

		// what was set, so that a deprecated alias can tell a setting from a default
		private final Set<String> assigned = new HashSet<>();

		void validate(UnaryOperator<String> names) {
			if (this.group != null) {
				validateGroup(names.apply(REPLICAS + "group"), this.group);
			}
			String leaseDuration = names.apply(REPLICAS + "lease-duration");
			String renewDeadline = names.apply(REPLICAS + "renew-deadline");
			String retryPeriod = names.apply(REPLICAS + "retry-period");
			requireWholeSeconds(leaseDuration, this.leaseDuration);
			requirePositive(retryPeriod, this.retryPeriod, "for example '2s'");
			// fabric8's elector waits up to 2.2 retry periods between attempts,
			// and refuses to start unless a renewal fits twice in the deadline
			long retry = this.retryPeriod.toMillis();
			if (this.renewDeadline.toMillis() <= retry + (retry * 12 + 9) / 10) {
				throw invalid(renewDeadline, this.renewDeadline,
						"must be longer than 2.2 x " + retryPeriod + " (" + simple(this.retryPeriod)
								+ "): fabric8 waits up to that long between two attempts to renew; for example "
								+ "'10s' with '2s'");
			}
			if (this.leaseDuration.compareTo(this.renewDeadline) <= 0) {
				throw invalid(leaseDuration, this.leaseDuration,
						"must be longer than " + renewDeadline + " (" + simple(this.renewDeadline)
								+ "), so that a leader stops publishing before another replica may take over; "
								+ "for example '15s' with '10s'");
			}
		}

		/**
		 * The Lease stores its duration as whole seconds ({@code leaseDurationSeconds},
		 * at least 1), and fabric8 truncates: 1500ms would let other replicas take over
		 * after 1 s, and anything under a second is written as 0, which the API server
		 * refuses (HTTP 422).
		 */
		private static void requireWholeSeconds(String property, Duration leaseDuration) {
			if (leaseDuration.isNegative() || leaseDuration.getNano() != 0 || leaseDuration.isZero()) {
				long written = Math.max(0, leaseDuration.getSeconds());
				throw invalid(property, leaseDuration,
						"must be whole seconds, at least 1s: a Lease stores its duration in seconds and this one "
								+ "would be written as " + written + " s"
								+ ((written == 0) ? ", which the API server refuses" : "") + "; for example '"
								+ Math.max(1, written + 1) + "s'");
			}
		}

		private static void validateGroup(String property, String group) {
			if (!LEASE_NAME.matcher(group).matches()) {
				throw invalid(property, group,
						"must be a valid Kubernetes name (lower case letters, digits, '-' and '.'), "
								+ "for example 'orders-service'");
			}
			if (group.length() > MAX_GROUP_LENGTH) {
				throw invalid(property, group,
						"must be at most " + MAX_GROUP_LENGTH + " characters (it has " + group.length()
								+ "): it is the value of the label " + DeliveryOptions.GROUP_LABEL
								+ " on the Leases of a sharded group's members; for example 'orders-service'");
			}
		}

		boolean isAssigned(String property) {
			return this.assigned.contains(property);
		}

		public DeliveryMode getMode() {
			return this.mode;
		}

		public void setMode(DeliveryMode mode) {
			this.mode = mode;
			this.assigned.add("mode");
		}

		public @Nullable String getGroup() {
			return this.group;
		}

		public void setGroup(@Nullable String group) {
			this.group = group;
			this.assigned.add("group");
		}

		public @Nullable String getIdentity() {
			return this.identity;
		}

		public void setIdentity(@Nullable String identity) {
			this.identity = identity;
			this.assigned.add("identity");
		}

		public @Nullable String getLeaseNamespace() {
			return this.leaseNamespace;
		}

		public void setLeaseNamespace(@Nullable String leaseNamespace) {
			this.leaseNamespace = leaseNamespace;
			this.assigned.add("lease-namespace");
		}

		public Duration getLeaseDuration() {
			return this.leaseDuration;
		}

		public void setLeaseDuration(Duration leaseDuration) {
			this.leaseDuration = leaseDuration;
			this.assigned.add("lease-duration");
		}

		public Duration getRenewDeadline() {
			return this.renewDeadline;
		}

		public void setRenewDeadline(Duration renewDeadline) {
			this.renewDeadline = renewDeadline;
			this.assigned.add("renew-deadline");
		}

		public Duration getRetryPeriod() {
			return this.retryPeriod;
		}

		public void setRetryPeriod(Duration retryPeriod) {
			this.retryPeriod = retryPeriod;
			this.assigned.add("retry-period");
		}

		public boolean isServerSharding() {
			return this.serverSharding;
		}

		public void setServerSharding(boolean serverSharding) {
			this.serverSharding = serverSharding;
			this.assigned.add("server-sharding");
		}

		public Duration getStepDownStaleAfter() {
			return this.stepDownStaleAfter;
		}

		public void setStepDownStaleAfter(Duration stepDownStaleAfter) {
			this.stepDownStaleAfter = stepDownStaleAfter;
			this.assigned.add("step-down-stale-after");
		}

		public boolean isReadiness() {
			return this.readiness;
		}

		public void setReadiness(boolean readiness) {
			this.readiness = readiness;
			this.assigned.add("readiness");
		}

	}

	/**
	 * The properties {@code informer.delivery.*} were before they were split by concern
	 * into {@code informer.listeners.*} and {@code informer.replicas.*}. Each is a
	 * deprecated alias of its replacement, applied to it once bound.
	 *
	 * @since 0.1.0
	 * @deprecated since 0.1.0 for removal in the next release, in favour of
	 * {@link Listeners} and {@link Replicas}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public static class Delivery {

		/**
		 * Which replicas publish resource events.
		 */
		private @Nullable DeliveryMode mode;

		/**
		 * The group the replicas form, and the name of its Leases.
		 */
		private @Nullable String group;

		/**
		 * This replica's identity in the Leases.
		 */
		private @Nullable String identity;

		/**
		 * The namespace of the Leases.
		 */
		private @Nullable String leaseNamespace;

		/**
		 * How long a Lease lasts without renewal before another replica may take it.
		 */
		private @Nullable Duration leaseDuration;

		/**
		 * How long a holder keeps trying to renew its Lease before it stops publishing.
		 */
		private @Nullable Duration renewDeadline;

		/**
		 * How often Leases are renewed, tried and read.
		 */
		private @Nullable Duration retryPeriod;

		/**
		 * Whether sharded informers list and watch only their range when the API server
		 * serves shard selectors.
		 */
		private @Nullable Boolean serverSharding;

		/**
		 * Whether the 'delivery' health component is part of the readiness group.
		 */
		private @Nullable Boolean readiness;

		/**
		 * The most threads that run listeners at once, over all informers.
		 */
		private @Nullable Integer maxThreads;

		/**
		 * The most changes one watch holds for its listeners before 'overflow' applies.
		 */
		private @Nullable Long maxBacklog;

		/**
		 * What happens once a watch's backlog reaches 'max-backlog'.
		 */
		private BacklogOptions.@Nullable Overflow overflow;

		/**
		 * The name of the Executor bean that runs listeners.
		 */
		private @Nullable String executor;

		void applyTo(Listeners listeners, Replicas replicas, DeprecatedAliases aliases) {
			aliases.apply(DELIVERY + "max-threads", this.maxThreads, LISTENERS + "max-threads",
					listeners.isAssigned("max-threads"), listeners.getMaxThreads(), listeners::setMaxThreads);
			aliases.apply(DELIVERY + "max-backlog", this.maxBacklog, LISTENERS + "max-backlog",
					listeners.isAssigned("max-backlog"), listeners.getMaxBacklog(), listeners::setMaxBacklog);
			aliases.apply(DELIVERY + "overflow", this.overflow, LISTENERS + "overflow",
					listeners.isAssigned("overflow"), listeners.getOverflow(), listeners::setOverflow);
			aliases.apply(DELIVERY + "executor", this.executor, LISTENERS + "executor",
					listeners.isAssigned("executor"), listeners.getExecutor(), listeners::setExecutor);
			aliases.apply(DELIVERY + "mode", this.mode, REPLICAS + "mode", replicas.isAssigned("mode"),
					replicas.getMode(), replicas::setMode);
			aliases.apply(DELIVERY + "group", this.group, REPLICAS + "group", replicas.isAssigned("group"),
					replicas.getGroup(), replicas::setGroup);
			aliases.apply(DELIVERY + "identity", this.identity, REPLICAS + "identity", replicas.isAssigned("identity"),
					replicas.getIdentity(), replicas::setIdentity);
			aliases.apply(DELIVERY + "lease-namespace", this.leaseNamespace, REPLICAS + "lease-namespace",
					replicas.isAssigned("lease-namespace"), replicas.getLeaseNamespace(), replicas::setLeaseNamespace);
			aliases.apply(DELIVERY + "lease-duration", this.leaseDuration, REPLICAS + "lease-duration",
					replicas.isAssigned("lease-duration"), replicas.getLeaseDuration(), replicas::setLeaseDuration);
			aliases.apply(DELIVERY + "renew-deadline", this.renewDeadline, REPLICAS + "renew-deadline",
					replicas.isAssigned("renew-deadline"), replicas.getRenewDeadline(), replicas::setRenewDeadline);
			aliases.apply(DELIVERY + "retry-period", this.retryPeriod, REPLICAS + "retry-period",
					replicas.isAssigned("retry-period"), replicas.getRetryPeriod(), replicas::setRetryPeriod);
			aliases.apply(DELIVERY + "server-sharding", this.serverSharding, REPLICAS + "server-sharding",
					replicas.isAssigned("server-sharding"), replicas.isServerSharding(), replicas::setServerSharding);
			aliases.apply(DELIVERY + "readiness", this.readiness, REPLICAS + "readiness",
					replicas.isAssigned("readiness"), replicas.isReadiness(), replicas::setReadiness);
		}

		@DeprecatedConfigurationProperty(replacement = REPLICAS + "mode", since = "0.1.0")
		public @Nullable DeliveryMode getMode() {
			return this.mode;
		}

		public void setMode(@Nullable DeliveryMode mode) {
			this.mode = mode;
		}

		@DeprecatedConfigurationProperty(replacement = REPLICAS + "group", since = "0.1.0")
		public @Nullable String getGroup() {
			return this.group;
		}

		public void setGroup(@Nullable String group) {
			this.group = group;
		}

		@DeprecatedConfigurationProperty(replacement = REPLICAS + "identity", since = "0.1.0")
		public @Nullable String getIdentity() {
			return this.identity;
		}

		public void setIdentity(@Nullable String identity) {
			this.identity = identity;
		}

		@DeprecatedConfigurationProperty(replacement = REPLICAS + "lease-namespace", since = "0.1.0")
		public @Nullable String getLeaseNamespace() {
			return this.leaseNamespace;
		}

		public void setLeaseNamespace(@Nullable String leaseNamespace) {
			this.leaseNamespace = leaseNamespace;
		}

		@DeprecatedConfigurationProperty(replacement = REPLICAS + "lease-duration", since = "0.1.0")
		public @Nullable Duration getLeaseDuration() {
			return this.leaseDuration;
		}

		public void setLeaseDuration(@Nullable Duration leaseDuration) {
			this.leaseDuration = leaseDuration;
		}

		@DeprecatedConfigurationProperty(replacement = REPLICAS + "renew-deadline", since = "0.1.0")
		public @Nullable Duration getRenewDeadline() {
			return this.renewDeadline;
		}

		public void setRenewDeadline(@Nullable Duration renewDeadline) {
			this.renewDeadline = renewDeadline;
		}

		@DeprecatedConfigurationProperty(replacement = REPLICAS + "retry-period", since = "0.1.0")
		public @Nullable Duration getRetryPeriod() {
			return this.retryPeriod;
		}

		public void setRetryPeriod(@Nullable Duration retryPeriod) {
			this.retryPeriod = retryPeriod;
		}

		@DeprecatedConfigurationProperty(replacement = REPLICAS + "server-sharding", since = "0.1.0")
		public @Nullable Boolean getServerSharding() {
			return this.serverSharding;
		}

		public void setServerSharding(@Nullable Boolean serverSharding) {
			this.serverSharding = serverSharding;
		}

		@DeprecatedConfigurationProperty(replacement = REPLICAS + "readiness", since = "0.1.0")
		public @Nullable Boolean getReadiness() {
			return this.readiness;
		}

		public void setReadiness(@Nullable Boolean readiness) {
			this.readiness = readiness;
		}

		@DeprecatedConfigurationProperty(replacement = LISTENERS + "max-threads", since = "0.1.0")
		public @Nullable Integer getMaxThreads() {
			return this.maxThreads;
		}

		public void setMaxThreads(@Nullable Integer maxThreads) {
			this.maxThreads = maxThreads;
		}

		@DeprecatedConfigurationProperty(replacement = LISTENERS + "max-backlog", since = "0.1.0")
		public @Nullable Long getMaxBacklog() {
			return this.maxBacklog;
		}

		public void setMaxBacklog(@Nullable Long maxBacklog) {
			this.maxBacklog = maxBacklog;
		}

		@DeprecatedConfigurationProperty(replacement = LISTENERS + "overflow", since = "0.1.0")
		public BacklogOptions.@Nullable Overflow getOverflow() {
			return this.overflow;
		}

		public void setOverflow(BacklogOptions.@Nullable Overflow overflow) {
			this.overflow = overflow;
		}

		@DeprecatedConfigurationProperty(replacement = LISTENERS + "executor", since = "0.1.0")
		public @Nullable String getExecutor() {
			return this.executor;
		}

		public void setExecutor(@Nullable String executor) {
			this.executor = executor;
		}

	}

	/**
	 * How health judges informers.
	 *
	 * @since 0.1.0
	 */
	public static class Health {

		/**
		 * How long an informer may be without an open watch before its health is DOWN.
		 * fabric8 closes every watch after 5 to 10 minutes and reopens it within a
		 * second, and after a failure retries with a backoff doubling from 1 s to 32 s;
		 * the default of 90 s covers the longest backoff plus a reconnect and a relist,
		 * so routine reconnects never flap health or readiness.
		 */
		private Duration watchLossGrace = Duration.ofSeconds(90);

		/**
		 * How often to read the API server's current resourceVersion for each watch (a
		 * consistent list of at most one object), to tell how far its cache is behind:
		 * one request per watch per period. 0 turns the check off. The API server sends
		 * an idle watch a bookmark about once a minute, so a healthy cache reaches what
		 * was read within about a minute.
		 */
		private Duration stalenessCheckPeriod = Duration.ofMinutes(1);

		public Duration getStalenessCheckPeriod() {
			return this.stalenessCheckPeriod;
		}

		public void setStalenessCheckPeriod(Duration stalenessCheckPeriod) {
			this.stalenessCheckPeriod = stalenessCheckPeriod;
		}

		public Duration getWatchLossGrace() {
			return this.watchLossGrace;
		}

		public void setWatchLossGrace(Duration watchLossGrace) {
			this.watchLossGrace = watchLossGrace;
		}

		/**
		 * How long nothing (no event, no bookmark) may arrive on an open watch before its
		 * health is OUT_OF_SERVICE with the reason "Stale" (readiness only). The API
		 * server sends an idle watch a bookmark every minute; keep this above that and
		 * below informer.reliability.restart-silent-watch-after.
		 */
		private Duration staleAfter = Duration.ofSeconds(65);

		public Duration getStaleAfter() {
			return this.staleAfter;
		}

		public void setStaleAfter(Duration staleAfter) {
			this.staleAfter = staleAfter;
		}

	}

	/**
	 * When a fabric8 informer that stopped working is replaced by a fresh one, seeded
	 * from what listeners have seen so that only real differences are delivered.
	 *
	 * @since 0.1.0
	 */
	public static class Reliability {

		private static final Duration MIN_RESTART_SILENT_WATCH_AFTER = Duration.ofSeconds(5);

		/**
		 * Replace an informer whose watch has not been open for this long. fabric8
		 * retries a lost watch itself (backoff up to 32 s) but reports nothing about why
		 * it fails; the replacement's list does (for example Forbidden after access was
		 * revoked), and catches a watch that never comes back.
		 */
		private Duration replaceStalledAfter = Duration.ofMinutes(2);

		/**
		 * Window over which watch availability is measured: a watch open for less than
		 * half of it, and lost at least three times in it, is replaced (the server keeps
		 * failing it, and fabric8 would reconnect about once a second forever).
		 */
		private Duration watchAvailabilityWindow = Duration.ofSeconds(60);

		/**
		 * Base of the wait before replacing an informer; doubles with every consecutive
		 * replacement and is randomized by Spring's jitter (with 1s: 1-1.5s, then 1-3s,
		 * then 2-6s...).
		 */
		private Duration backoffInitialInterval = Duration.ofSeconds(1);

		/**
		 * Longest wait between consecutive replacements.
		 */
		private Duration backoffMaxInterval = Duration.ofMinutes(5);

		/**
		 * End a watch connection on which nothing (no event, no bookmark) arrived for
		 * this long, and watch again from the last resourceVersion on a new connection
		 * (no relist). A connection that a lost NAT entry or load balancer state
		 * black-holed never closes by itself. The API server sends an idle watch a
		 * bookmark every minute: a bound below that restarts idle watches needlessly (one
		 * request each, no relist).
		 */
		private Duration restartSilentWatchAfter = Duration.ofSeconds(75);

		public Duration getReplaceStalledAfter() {
			return this.replaceStalledAfter;
		}

		public void setReplaceStalledAfter(Duration replaceStalledAfter) {
			this.replaceStalledAfter = replaceStalledAfter;
		}

		public Duration getWatchAvailabilityWindow() {
			return this.watchAvailabilityWindow;
		}

		public void setWatchAvailabilityWindow(Duration watchAvailabilityWindow) {
			this.watchAvailabilityWindow = watchAvailabilityWindow;
		}

		public Duration getBackoffInitialInterval() {
			return this.backoffInitialInterval;
		}

		public void setBackoffInitialInterval(Duration backoffInitialInterval) {
			this.backoffInitialInterval = backoffInitialInterval;
		}

		public Duration getBackoffMaxInterval() {
			return this.backoffMaxInterval;
		}

		public void setBackoffMaxInterval(Duration backoffMaxInterval) {
			this.backoffMaxInterval = backoffMaxInterval;
		}

		public Duration getRestartSilentWatchAfter() {
			return this.restartSilentWatchAfter;
		}

		public void setRestartSilentWatchAfter(Duration restartSilentWatchAfter) {
			this.restartSilentWatchAfter = restartSilentWatchAfter;
		}

		void validate() {
			requirePositive("informer.reliability.replace-stalled-after", this.replaceStalledAfter,
					"for example '2m' (the default)");
			requirePositive("informer.reliability.watch-availability-window", this.watchAvailabilityWindow,
					"for example '60s' (the default)");
			requirePositive("informer.reliability.backoff-initial-interval", this.backoffInitialInterval,
					"for example '1s' (the default)");
			requirePositive("informer.reliability.backoff-max-interval", this.backoffMaxInterval,
					"for example '5m' (the default)");
			if (this.restartSilentWatchAfter.compareTo(MIN_RESTART_SILENT_WATCH_AFTER) < 0) {
				throw invalid("informer.reliability.restart-silent-watch-after", this.restartSilentWatchAfter,
						"must be at least " + simple(MIN_RESTART_SILENT_WATCH_AFTER)
								+ " (a reconnect takes about a second); use for example '75s' (the default), "
								+ "above the API server's bookmark interval of one minute");
			}
			if (this.backoffMaxInterval.compareTo(this.backoffInitialInterval) < 0) {
				throw invalid("informer.reliability.backoff-max-interval", this.backoffMaxInterval,
						"must not be shorter than informer.reliability.backoff-initial-interval ("
								+ simple(this.backoffInitialInterval) + "): raise it, or lower the initial interval");
			}
		}

	}

	/**
	 * One informer declaration.
	 *
	 * @since 0.1.0
	 */
	public static class Resource {

		/**
		 * Whether this informer is started.
		 */
		private boolean enabled = true;

		/**
		 * API version of the kind: 'v1' for core kinds, 'group/version' otherwise.
		 */
		private @Nullable String apiVersion;

		/**
		 * Kind to watch, as the API server spells it, for example 'ConfigMap'.
		 */
		private @Nullable String kind;

		/**
		 * Fully qualified name of a fabric8 HasMetadata class (for example a
		 * CustomResource subclass) to deserialize into. Built-in kinds use fabric8's
		 * model class; other kinds without a type are watched as
		 * GenericKubernetesResource.
		 */
		private @Nullable String type;

		/**
		 * Namespaces to watch, one watch each. Empty watches all namespaces; must be
		 * empty for cluster-scoped kinds.
		 */
		private List<String> namespaces = new ArrayList<>();

		/**
		 * Label selector applied by the API server, in kubectl syntax, for example 'app
		 * in (web,api),!legacy'.
		 */
		private @Nullable String labelSelector;

		/**
		 * Field selector applied by the API server, for example
		 * 'metadata.name!=kube-root-ca.crt'.
		 */
		private @Nullable String fieldSelector;

		/**
		 * Label selector of the namespaces to watch, for example 'tenant=acme': one watch
		 * per matching namespace, started when a namespace starts matching and stopped
		 * when it stops matching or is deleted. Exclusive with 'namespaces'; not for
		 * cluster-scoped kinds.
		 */
		private @Nullable String namespaceSelector;

		/**
		 * Resync period of this informer. Defaults to 'informer.resync-period'.
		 */
		private @Nullable Duration resyncPeriod;

		/**
		 * Page size of list requests of this informer. Defaults to
		 * 'informer.list-page-size'.
		 */
		private @Nullable Long listPageSize;

		/**
		 * Whether to drop metadata.managedFields for this informer. Defaults to
		 * 'informer.strip-managed-fields'.
		 */
		private @Nullable Boolean stripManagedFields;

		private final Replicas replicas = new Replicas();

		/**
		 * Which replicas publish this informer's resource events: deprecated alias of
		 * 'replicas.mode'.
		 */
		private @Nullable DeliveryMode deliveryMode;

		/**
		 * What to list, watch and cache of each object: 'full' objects, or only their
		 * 'metadata' (delivered as PartialObjectMetadata).
		 */
		private CacheMode cache = CacheMode.FULL;

		/**
		 * Which updates are delivered: 'generation', 'labels', 'annotations',
		 * 'finalizers', 'owners', 'deletion', 'status', 'spec', 'data', 'any' (the
		 * default), or paths such as 'spec.replicas' or "metadata.labels['app']". An
		 * update whose listed parts equal those last delivered for the object is cached
		 * but not delivered; adds and deletes are always delivered.
		 */
		private List<String> onChange = new ArrayList<>();

		/**
		 * Paths removed from each object before it is cached and delivered, for example
		 * "metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']" or
		 * 'status.conditions'.
		 */
		private List<String> prune = new ArrayList<>();

		/**
		 * Indexes of the cache, by name, each the path of the values it indexes, for
		 * example 'by-node: spec.nodeName' or 'by-owner:
		 * metadata.ownerReferences[*].uid'. Read with ResourceCache.byIndex.
		 */
		private Map<String, String> indexes = new LinkedHashMap<>();

		public List<String> getOnChange() {
			return this.onChange;
		}

		public void setOnChange(List<String> onChange) {
			this.onChange = onChange;
		}

		public List<String> getPrune() {
			return this.prune;
		}

		public void setPrune(List<String> prune) {
			this.prune = prune;
		}

		public Map<String, String> getIndexes() {
			return this.indexes;
		}

		public void setIndexes(Map<String, String> indexes) {
			this.indexes = indexes;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getApiVersion() {
			return this.apiVersion;
		}

		public void setApiVersion(@Nullable String apiVersion) {
			this.apiVersion = apiVersion;
		}

		public @Nullable String getKind() {
			return this.kind;
		}

		public void setKind(@Nullable String kind) {
			this.kind = kind;
		}

		public @Nullable String getType() {
			return this.type;
		}

		public void setType(@Nullable String type) {
			this.type = type;
		}

		public List<String> getNamespaces() {
			return this.namespaces;
		}

		public void setNamespaces(List<String> namespaces) {
			this.namespaces = namespaces;
		}

		public @Nullable String getLabelSelector() {
			return this.labelSelector;
		}

		public void setLabelSelector(@Nullable String labelSelector) {
			this.labelSelector = labelSelector;
		}

		public @Nullable String getNamespaceSelector() {
			return this.namespaceSelector;
		}

		public void setNamespaceSelector(@Nullable String namespaceSelector) {
			this.namespaceSelector = namespaceSelector;
		}

		public @Nullable String getFieldSelector() {
			return this.fieldSelector;
		}

		public void setFieldSelector(@Nullable String fieldSelector) {
			this.fieldSelector = fieldSelector;
		}

		public @Nullable Duration getResyncPeriod() {
			return this.resyncPeriod;
		}

		public void setResyncPeriod(@Nullable Duration resyncPeriod) {
			this.resyncPeriod = resyncPeriod;
		}

		public @Nullable Long getListPageSize() {
			return this.listPageSize;
		}

		public void setListPageSize(@Nullable Long listPageSize) {
			this.listPageSize = listPageSize;
		}

		public Replicas getReplicas() {
			return this.replicas;
		}

		/**
		 * Return the deprecated alias of {@code replicas.mode}.
		 * @return the delivery mode
		 * @deprecated since 0.1.0 for removal in the next release, in favour of
		 * {@code getReplicas().getMode()}
		 */
		@Deprecated(since = "0.1.0", forRemoval = true)
		@DeprecatedConfigurationProperty(replacement = "informer.resources.<name>.replicas.mode", since = "0.1.0")
		public @Nullable DeliveryMode getDeliveryMode() {
			return this.deliveryMode;
		}

		/**
		 * Set the deprecated alias of {@code replicas.mode}.
		 * @param deliveryMode the delivery mode
		 * @deprecated since 0.1.0 for removal in the next release, in favour of
		 * {@code getReplicas().setMode(...)}
		 */
		@Deprecated(since = "0.1.0", forRemoval = true)
		public void setDeliveryMode(@Nullable DeliveryMode deliveryMode) {
			this.deliveryMode = deliveryMode;
		}

		void applyAliases(String prefix, DeprecatedAliases aliases) {
			aliases.apply(prefix + "delivery-mode", this.deliveryMode, prefix + "replicas.mode",
					this.replicas.getMode() != null, this.replicas.getMode(), this.replicas::setMode);
		}

		public @Nullable Boolean getStripManagedFields() {
			return this.stripManagedFields;
		}

		public void setStripManagedFields(@Nullable Boolean stripManagedFields) {
			this.stripManagedFields = stripManagedFields;
		}

		public CacheMode getCache() {
			return this.cache;
		}

		public void setCache(CacheMode cache) {
			this.cache = cache;
		}

		/**
		 * How the replicas share this informer's resource events.
		 *
		 * @since 0.1.0
		 */
		public static class Replicas {

			/**
			 * Which replicas publish this informer's resource events: 'all', 'leader' or
			 * 'sharded'. Defaults to 'informer.replicas.mode'.
			 */
			private @Nullable DeliveryMode mode;

			public @Nullable DeliveryMode getMode() {
				return this.mode;
			}

			public void setMode(@Nullable DeliveryMode mode) {
				this.mode = mode;
			}

		}

	}

}
