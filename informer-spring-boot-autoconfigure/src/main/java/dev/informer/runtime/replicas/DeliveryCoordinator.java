package dev.informer.runtime.replicas;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.SmartLifecycle;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;
import dev.informer.InformerStartupException;
import dev.informer.RbacRules;
import dev.informer.event.DeliveryRoleChangedEvent;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.watch.DeliverySnapshot;
import dev.informer.watch.DeliveryStatusSource;
import dev.informer.watch.KubernetesErrors;

/**
 * Shares the delivery of resource events among the replicas of an application, on
 * Kubernetes Leases ({@code informer.replicas.*}): {@link LeaderDelivery} for the
 * informers in {@link DeliveryMode#LEADER} mode, {@link ShardedDelivery} for those in
 * {@link DeliveryMode#SHARDED} mode. Owns their thread, publishes role changes and
 * assembles the status.
 * <p>
 * Starts before the informers (so that they start with their shard selector and the first
 * leader publishes its initial list live) and stops after them, giving the Leases up so
 * that another replica takes over without waiting for them to expire.
 *
 * @since 0.1.0
 */
public class DeliveryCoordinator implements SmartLifecycle, DeliveryStatusSource, ApplicationContextAware {

	/**
	 * The phase: just before the informers start, just after they stop.
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 3073;

	/**
	 * The longest time a stop waits for the API server to take a Lease back.
	 */
	static final Duration GIVE_UP_BOUND = Duration.ofSeconds(2);

	private static final Log logger = LogFactory.getLog(DeliveryCoordinator.class);

	private final List<String> names;

	private final InformerEventPublisher publisher;

	private final DeliveryOptions options;

	private final Clock clock;

	private final @Nullable LeaderDelivery leader;

	private final @Nullable ShardedDelivery sharded;

	private final DeliveryRecords records;

	private volatile boolean running;

	private @Nullable ScheduledExecutorService scheduler;

	private volatile @Nullable ExecutorService events;

	private @Nullable ApplicationContext context;

	/**
	 * Create the coordinator.
	 * @param informers the informers
	 * @param client the client for the Leases
	 * @param publisher where to publish role changes
	 * @param options how to share delivery
	 * @param clock the clock that writes and judges Lease times
	 */
	public DeliveryCoordinator(Collection<? extends ReplicatedInformer> informers, KubernetesClient client,
			InformerEventPublisher publisher, DeliveryOptions options, Clock clock) {
		this.names = informers.stream().map(ReplicatedInformer::getName).toList();
		this.publisher = publisher;
		this.options = options;
		this.clock = clock;
		this.records = new DeliveryRecords(DeliveryRecords.DEFAULT_TOMBSTONE_RETENTION,
				DeliveryRecords.DEFAULT_MAX_TOMBSTONES, DeliveryRecords.DEFAULT_MAX_MISSED_CHANGES, clock);
		List<ReplicatedInformer> leaderInformers = new ArrayList<>();
		List<ReplicatedInformer> shardedInformers = new ArrayList<>();
		for (ReplicatedInformer informer : informers) {
			switch (options.modeOf(informer.getName())) {
				case LEADER -> leaderInformers.add(informer);
				case SHARDED -> shardedInformers.add(informer);
				case ALL -> {
				}
			}
		}
		this.leader = leaderInformers.isEmpty() ? null
				: new LeaderDelivery(client, options, clock, leaderInformers, this.records, this::roleChanged);
		this.sharded = shardedInformers.isEmpty() ? null
				: new ShardedDelivery(client, options, clock, shardedInformers, this.records, this::roleChanged);
	}

	/**
	 * Let the coordinator register the context's listeners with the publisher before it
	 * publishes the first role change: it starts before the informers' lifecycle.
	 * @param context the application context
	 */
	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public void start() {
		synchronized (this) {
			this.running = true;
			if (this.leader == null && this.sharded == null) {
				return;
			}
			ApplicationContext context = this.context;
			if (context != null) {
				// the first role change (becoming leader, a first range) comes now
				this.publisher.addListenersOf(context);
			}
			ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor((runnable) -> {
				Thread thread = new Thread(runnable, "informer-delivery-" + this.options.group());
				thread.setDaemon(true);
				return thread;
			});
			this.scheduler = scheduler;
			this.events = Executors.newSingleThreadExecutor((runnable) -> {
				Thread thread = new Thread(runnable, "informer-delivery-events");
				thread.setDaemon(true);
				return thread;
			});
			for (ReplicaDelivery delivery : deliveries()) {
				delivery.start(scheduler, this::awaitFirstRound);
			}
			long period = this.options.retryPeriod().toMillis();
			scheduler.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
		}
	}

	private List<ReplicaDelivery> deliveries() {
		List<ReplicaDelivery> deliveries = new ArrayList<>(2);
		if (this.leader != null) {
			deliveries.add(this.leader);
		}
		if (this.sharded != null) {
			deliveries.add(this.sharded);
		}
		return deliveries;
	}

	private void awaitFirstRound(CompletableFuture<Void> firstRound) {
		try {
			firstRound.get(this.options.leaseDuration().toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof LeaseRefusedException refused) {
				stop();
				throw refusal(refused);
			}
			logger.warn("Delivery group '" + this.options.group() + "': " + KubernetesErrors.describe(ex.getCause())
					+ "; publishing nothing until this replica reaches its Lease");
		}
		catch (TimeoutException ex) {
			logger.warn("Delivery group '" + this.options.group() + "': no answer about its Lease within "
					+ this.options.leaseDuration().toSeconds() + " s; publishing nothing until there is one");
		}
	}

	private InformerStartupException refusal(LeaseRefusedException refused) {
		String namespace = this.options.leaseNamespace();
		if (refused.code() == 404) {
			return new InformerStartupException(
					"Delivery group '" + this.options.group() + "': cannot create its Lease in namespace '" + namespace
							+ "': the namespace does not exist",
					"Set informer.replicas.lease-namespace to an existing namespace (by default the pod's own), "
							+ "or create namespace '" + namespace + "'",
					refused.getCause());
		}
		if (refused.code() != 403) {
			return LeaseRequestFailures.startupFailure(this.options.group(), refused);
		}
		List<String> verbs = (this.sharded == null) ? RbacRules.LEADER_LEASE_VERBS : RbacRules.SHARDED_LEASE_VERBS;
		return new InformerStartupException(
				"Delivery group '" + this.options.group() + "' (informer.replicas.mode): this replica may not "
						+ refused.verb() + " Leases in namespace '" + namespace + "' (HTTP 403)",
				"Grant it a Role in namespace '" + namespace + "' with this rule (RbacRules prints the whole "
						+ "manifest):\n" + new RbacRules.Rule("coordination.k8s.io", List.of("leases"), verbs).toYaml(),
				refused.getCause());
	}

	/**
	 * Catch what no callback says, each delivery on its own: one that fails does not keep
	 * the other from its tick.
	 */
	private void tick() {
		for (ReplicaDelivery delivery : deliveries()) {
			try {
				delivery.tick();
			}
			catch (RuntimeException ex) {
				logger.warn("Delivery group '" + this.options.group() + "': " + KubernetesErrors.describe(ex)
						+ "; trying again in " + this.options.retryPeriod().toMillis() + " ms");
			}
		}
	}

	private void roleChanged(DeliveryMode mode, DeliveryRole previous, DeliveryRole role) {
		ExecutorService events = this.events;
		if (!this.running || events == null) {
			return;
		}
		LeaderDelivery leader = this.leader;
		ShardedDelivery sharded = this.sharded;
		DeliveryRoleChangedEvent event = new DeliveryRoleChangedEvent(mode, previous, role, this.options.group(),
				this.options.identity(), (leader != null) ? leader.holder() : null,
				(sharded != null) ? sharded.members() : List.of(),
				(sharded != null) ? sharded.ownedRanges() : List.of());
		try {
			// never on the thread that renews the Lease: a slow listener must not cost
			// it; and never once stopped, even if queued before
			events.execute(() -> this.publisher.publish(event, () -> this.running));
		}
		catch (RejectedExecutionException ex) {
			// stopped meanwhile
		}
	}

	@Override
	public void stop() {
		ScheduledExecutorService scheduler;
		ExecutorService events;
		synchronized (this) {
			this.running = false;
			scheduler = this.scheduler;
			events = this.events;
			this.scheduler = null;
			this.events = null;
		}
		if (events != null) {
			events.shutdownNow();
		}
		if (scheduler != null) {
			scheduler.shutdownNow();
		}
		// outside the lock, each bounded: the API server may not answer
		for (ReplicaDelivery delivery : deliveries()) {
			delivery.stop(GIVE_UP_BOUND);
		}
	}

	/**
	 * Run a task on the coordinator's thread, unless it was shut down: a Lease callback
	 * that comes while stopping has nothing left to do.
	 */
	static void runOn(ExecutorService thread, Runnable task) {
		try {
			thread.execute(task);
		}
		catch (RejectedExecutionException ex) {
			// stopped
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * Return how many cached objects this replica publishes: every cached object of a
	 * {@code leader} informer while leader, and the owned ones of {@code sharded}
	 * informers. Counts the caches: for metrics scrapes, not for every event.
	 * @return the number of owned objects
	 */
	public long ownedObjects() {
		return deliveries().stream().mapToLong(ReplicaDelivery::ownedObjects).sum();
	}

	@Override
	public long tombstones() {
		return this.records.tombstones();
	}

	@Override
	public long tombstonesDropped() {
		return this.records.tombstonesDropped();
	}

	@Override
	public long missedChanges() {
		return this.records.missedChanges();
	}

	@Override
	public long missedOverflows() {
		return this.records.missedOverflows();
	}

	@Override
	public DeliverySnapshot snapshot() {
		Map<String, DeliveryMode> modes = new LinkedHashMap<>();
		this.names.forEach((name) -> modes.put(name, this.options.modeOf(name)));
		LeaderDelivery leader = this.leader;
		ShardedDelivery sharded = this.sharded;
		return new DeliverySnapshot(this.options.group(), this.options.identity(), this.options.leaseNamespace(), modes,
				(leader != null) ? leader.snapshot() : null, (sharded != null) ? sharded.snapshot() : null,
				this.clock.instant(), staleness());
	}

	/**
	 * Return the staleness of the delivery that stepped down or has stale watches, the
	 * leader's first: both judge the same watches' kind of signals.
	 */
	private DeliverySnapshot.Staleness staleness() {
		DeliverySnapshot.Staleness found = DeliverySnapshot.Staleness.NONE;
		for (ReplicaDelivery delivery : deliveries()) {
			DeliverySnapshot.Staleness staleness = delivery.staleness();
			if (found == DeliverySnapshot.Staleness.NONE || staleness.steppedDown()) {
				found = staleness;
			}
		}
		return found;
	}

}
