package dev.informer.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

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
public class InformerProperties implements InitializingBean {

	/**
	 * A Kubernetes object name (DNS subdomain), as Lease names must be.
	 */
	static final Pattern LEASE_NAME = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	/**
	 * The longest group: a label value has at most 63 characters.
	 */
	static final int MAX_GROUP_LENGTH = 63;

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

	private final Delivery delivery = new Delivery();

	private final Events events = new Events();

	/**
	 * Informers by name. The name is used in events, health, metrics and the actuator
	 * endpoint.
	 */
	private final Map<String, Resource> resources = new LinkedHashMap<>();

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
	public void afterPropertiesSet() {
		DeclarationRules.checkDefaults(this.resyncPeriod, this.listPageSize);
		requirePositive("informer.startup.timeout", this.startup.getTimeout(), "for example '60s'; to start "
				+ "without waiting for informers set informer.startup.wait-for-sync=false instead");
		requirePositive("informer.health.watch-loss-grace", this.health.getWatchLossGrace(),
				"for example '90s' "
						+ "(the default): fabric8 reopens a watch routinely and, after failures, with a backoff of up "
						+ "to 32 s, so a shorter grace makes health flap");
		this.reliability.validate();
		this.delivery.validate();
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
		return new InvalidConfigurationPropertyValueException(property, value, reason);
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
		 * How many watches (one per informer and namespace) may run their initial list at
		 * once; the others wait for one to finish. Keeps hundreds of watches from sending
		 * hundreds of LISTs to the API server at the same moment. 0 for no cap.
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
	 * How the replicas of an application share the delivery of resource events, on
	 * Kubernetes Leases.
	 *
	 * @since 0.1.0
	 */
	public static class Delivery {

		/**
		 * Which replicas publish resource events: 'all' (every replica), 'leader' (only
		 * the holder of the group's Lease) or 'sharded' (each object by exactly one live
		 * member). Informers may override it with 'delivery-mode'.
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

		void validate() {
			if (this.maxBacklog != null && this.maxBacklog < 1) {
				throw invalid("informer.delivery.max-backlog", this.maxBacklog,
						"must be at least 1, for example '10000'; leave it unset for no bound");
			}
			if (this.maxThreads < 1) {
				throw invalid("informer.delivery.max-threads", this.maxThreads,
						"must be at least 1, for example '8' (the default)");
			}
			if (this.group != null) {
				validateGroup(this.group);
			}
			requireWholeSeconds(this.leaseDuration);
			requirePositive("informer.delivery.retry-period", this.retryPeriod, "for example '2s'");
			// fabric8's elector waits up to 2.2 retry periods between attempts,
			// and refuses to start unless a renewal fits twice in the deadline
			long retry = this.retryPeriod.toMillis();
			if (this.renewDeadline.toMillis() <= retry + (retry * 12 + 9) / 10) {
				throw invalid("informer.delivery.renew-deadline", this.renewDeadline,
						"must be longer than 2.2 x informer.delivery.retry-period (" + simple(this.retryPeriod)
								+ "): fabric8 waits up to that long between two attempts to renew; for example "
								+ "'10s' with '2s'");
			}
			if (this.leaseDuration.compareTo(this.renewDeadline) <= 0) {
				throw invalid("informer.delivery.lease-duration", this.leaseDuration,
						"must be longer than informer.delivery.renew-deadline (" + simple(this.renewDeadline)
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
		private static void requireWholeSeconds(Duration leaseDuration) {
			if (leaseDuration.isNegative() || leaseDuration.getNano() != 0 || leaseDuration.isZero()) {
				long written = Math.max(0, leaseDuration.getSeconds());
				throw invalid("informer.delivery.lease-duration", leaseDuration,
						"must be whole seconds, at least 1s: a Lease stores its duration in seconds and this one "
								+ "would be written as " + written + " s"
								+ ((written == 0) ? ", which the API server refuses" : "") + "; for example '"
								+ Math.max(1, written + 1) + "s'");
			}
		}

		private static void validateGroup(String group) {
			if (!LEASE_NAME.matcher(group).matches()) {
				throw invalid("informer.delivery.group", group,
						"must be a valid Kubernetes name (lower case letters, digits, '-' and '.'), "
								+ "for example 'orders-service'");
			}
			if (group.length() > MAX_GROUP_LENGTH) {
				throw invalid("informer.delivery.group", group,
						"must be at most " + MAX_GROUP_LENGTH + " characters (it has " + group.length()
								+ "): it is the value of the label " + DeliveryOptions.GROUP_LABEL
								+ " on the Leases of a sharded group's members; for example 'orders-service'");
			}
		}

		public DeliveryMode getMode() {
			return this.mode;
		}

		public void setMode(DeliveryMode mode) {
			this.mode = mode;
		}

		public @Nullable String getGroup() {
			return this.group;
		}

		public void setGroup(@Nullable String group) {
			this.group = group;
		}

		public @Nullable String getIdentity() {
			return this.identity;
		}

		public void setIdentity(@Nullable String identity) {
			this.identity = identity;
		}

		public @Nullable String getLeaseNamespace() {
			return this.leaseNamespace;
		}

		public void setLeaseNamespace(@Nullable String leaseNamespace) {
			this.leaseNamespace = leaseNamespace;
		}

		public Duration getLeaseDuration() {
			return this.leaseDuration;
		}

		public void setLeaseDuration(Duration leaseDuration) {
			this.leaseDuration = leaseDuration;
		}

		public Duration getRenewDeadline() {
			return this.renewDeadline;
		}

		public void setRenewDeadline(Duration renewDeadline) {
			this.renewDeadline = renewDeadline;
		}

		public Duration getRetryPeriod() {
			return this.retryPeriod;
		}

		public void setRetryPeriod(Duration retryPeriod) {
			this.retryPeriod = retryPeriod;
		}

		public int getMaxThreads() {
			return this.maxThreads;
		}

		public void setMaxThreads(int maxThreads) {
			this.maxThreads = maxThreads;
		}

		public @Nullable Long getMaxBacklog() {
			return this.maxBacklog;
		}

		public void setMaxBacklog(@Nullable Long maxBacklog) {
			this.maxBacklog = maxBacklog;
		}

		public @Nullable String getExecutor() {
			return this.executor;
		}

		public void setExecutor(@Nullable String executor) {
			this.executor = executor;
		}

		public BacklogOptions.Overflow getOverflow() {
			return this.overflow;
		}

		public void setOverflow(BacklogOptions.Overflow overflow) {
			this.overflow = overflow;
		}

		/**
		 * Return the backlog bound these properties set.
		 * @return the options
		 */
		public BacklogOptions backlogOptions() {
			return (this.maxBacklog != null) ? new BacklogOptions(this.maxBacklog, this.overflow)
					: BacklogOptions.UNBOUNDED;
		}

		public boolean isServerSharding() {
			return this.serverSharding;
		}

		public void setServerSharding(boolean serverSharding) {
			this.serverSharding = serverSharding;
		}

		public boolean isReadiness() {
			return this.readiness;
		}

		public void setReadiness(boolean readiness) {
			this.readiness = readiness;
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

		public Duration getWatchLossGrace() {
			return this.watchLossGrace;
		}

		public void setWatchLossGrace(Duration watchLossGrace) {
			this.watchLossGrace = watchLossGrace;
		}

	}

	/**
	 * When a fabric8 informer that stopped working is replaced by a fresh one, seeded
	 * from what listeners have seen so that only real differences are delivered.
	 *
	 * @since 0.1.0
	 */
	public static class Reliability {

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

		void validate() {
			requirePositive("informer.reliability.replace-stalled-after", this.replaceStalledAfter,
					"for example '2m' (the default)");
			requirePositive("informer.reliability.watch-availability-window", this.watchAvailabilityWindow,
					"for example '60s' (the default)");
			requirePositive("informer.reliability.backoff-initial-interval", this.backoffInitialInterval,
					"for example '1s' (the default)");
			requirePositive("informer.reliability.backoff-max-interval", this.backoffMaxInterval,
					"for example '5m' (the default)");
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

		/**
		 * Which replicas publish this informer's resource events; overrides
		 * 'informer.delivery.mode'.
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

		public @Nullable DeliveryMode getDeliveryMode() {
			return this.deliveryMode;
		}

		public void setDeliveryMode(@Nullable DeliveryMode deliveryMode) {
			this.deliveryMode = deliveryMode;
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

	}

}
