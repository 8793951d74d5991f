package dev.informer.runtime;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;
import dev.informer.InformerStartupException;
import dev.informer.RbacRules;
import dev.informer.event.DeliveryRoleChangedEvent;
import dev.informer.watch.DeliverySnapshot;
import dev.informer.watch.DeliveryStatusSource;
import dev.informer.watch.RelistReason;

/**
 * Shares the delivery of resource events among the replicas of an application, on
 * Kubernetes Leases ({@code informer.delivery.*}).
 * <ul>
 * <li>{@link DeliveryMode#LEADER}: the replicas compete for the group's Lease with
 * fabric8's {@code LeaderElector}; only the holder publishes. A replica that becomes
 * leader first replays its cache.</li>
 * <li>{@link DeliveryMode#SHARDED}: each replica holds a Lease of its own, labelled with
 * the group; the live Leases, sorted by holder, are the members, and member {@code i} of
 * {@code n} owns the {@code i}-th of {@code n} equal ranges of the uid hash. A replica
 * whose range grows replays the objects it gained; with the API server's shard selectors
 * it lists and watches its range only.</li>
 * </ul>
 * Starts before the informers (so that they start with their shard selector and the first
 * leader publishes its initial list live) and stops after them, releasing the Leases so
 * that another replica takes over without waiting for them to expire.
 */
public class DeliveryCoordinator implements SmartLifecycle, DeliveryStatusSource {

	/**
	 * The phase: just before the informers start, just after they stop.
	 */
	public static final int PHASE = InformerLifecycle.PHASE - 1;

	private static final Log logger = LogFactory.getLog(DeliveryCoordinator.class);

	private final DefaultInformerRegistry registry;

	private final KubernetesClient client;

	private final InformerEventPublisher publisher;

	private final DeliveryOptions options;

	private final Clock clock;

	private final List<ResourceInformer<?>> leaderInformers = new ArrayList<>();

	private final List<ResourceInformer<?>> shardedInformers = new ArrayList<>();

	private final AtomicLong handovers = new AtomicLong();

	private final AtomicLong rangeChanges = new AtomicLong();

	private volatile @Nullable LeaseElection leader;

	private volatile @Nullable LeaseElection member;

	private volatile DeliveryRole leaderRole = DeliveryRole.STANDBY;

	private volatile DeliveryRole shardRole = DeliveryRole.DETACHED;

	private volatile ShardRanges ranges = ShardRanges.NONE;

	private volatile List<String> members = List.of();

	private volatile boolean serverSharding;

	private volatile boolean running;

	private @Nullable ScheduledExecutorService scheduler;

	private @Nullable ExecutorService events;

	/**
	 * Create the coordinator.
	 * @param registry the informers
	 * @param client the client for the Leases
	 * @param publisher where to publish role changes
	 * @param options how to share delivery
	 * @param clock the clock that judges Lease times (the one fabric8 writes them with)
	 */
	public DeliveryCoordinator(DefaultInformerRegistry registry, KubernetesClient client,
			InformerEventPublisher publisher, DeliveryOptions options, Clock clock) {
		this.registry = registry;
		this.client = client;
		this.publisher = publisher;
		this.options = options;
		this.clock = clock;
		for (ResourceInformer<?> informer : registry.informers()) {
			switch (options.modeOf(informer.getName())) {
				case LEADER -> this.leaderInformers.add(informer);
				case SHARDED -> this.shardedInformers.add(informer);
				case ALL -> {
				}
			}
		}
	}

	@Override
	public synchronized void start() {
		this.running = true;
		if (this.leaderInformers.isEmpty() && this.shardedInformers.isEmpty()) {
			return;
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
		if (!this.leaderInformers.isEmpty()) {
			startLeaderElection(scheduler);
		}
		if (!this.shardedInformers.isEmpty()) {
			startMembership(scheduler);
		}
		long period = this.options.retryPeriod().toMillis();
		scheduler.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
	}

	private void startLeaderElection(ScheduledExecutorService scheduler) {
		LeaseElection election = new LeaseElection(this.client, leaseMeta(this.options.leaderLeaseName(), false),
				this.options, this.clock, scheduler, (changed) -> scheduler.execute(this::evaluateLeadership));
		this.leader = election;
		for (ResourceInformer<?> informer : this.leaderInformers) {
			informer.deliverThrough((resource) -> election.isHeld(), () -> null);
		}
		// the first leader publishes its initial list live rather than as a replay
		awaitFirstRound(election.start());
		evaluateLeadership();
	}

	private void startMembership(ScheduledExecutorService scheduler) {
		LeaseElection election = new LeaseElection(this.client, leaseMeta(this.options.memberLeaseName(), true),
				this.options, this.clock, scheduler, (changed) -> scheduler.execute(this::refreshMembership));
		this.member = election;
		this.serverSharding = this.options.serverSharding() && detectServerSharding();
		for (ResourceInformer<?> informer : this.shardedInformers) {
			informer.deliverThrough((resource) -> election.isHeld() && this.ranges.owns(resource),
					() -> this.serverSharding ? this.ranges.selector() : null);
		}
		// informers start with their range: they list only it when the server filters
		awaitFirstRound(election.start());
		refreshMembership();
	}

	private boolean detectServerSharding() {
		try {
			boolean served = this.shardedInformers.get(0).servesShardSelectors(this.client);
			logger.info("Delivery group '" + this.options.group() + "': the API server "
					+ (served ? "filters lists and watches by shard range"
							: "does not serve shard selectors (feature gate ShardedListAndWatch); each replica "
									+ "watches every object and publishes its range"));
			return served;
		}
		catch (KubernetesClientException ex) {
			logger.warn("Delivery group '" + this.options.group()
					+ "': could not tell whether the API server serves shard selectors ("
					+ NamespaceInformer.describe(ex) + "); each replica watches every object");
			return false;
		}
	}

	private void awaitFirstRound(CompletableFuture<Void> firstRound) {
		try {
			firstRound.get(this.options.leaseDuration().toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof LeaseElection.LeaseRefusedException refused) {
				stop();
				throw refusal(refused);
			}
			logger.warn("Delivery group '" + this.options.group() + "': " + NamespaceInformer.describe(ex.getCause())
					+ "; publishing nothing until this replica reaches its Lease");
		}
		catch (TimeoutException ex) {
			logger.warn("Delivery group '" + this.options.group() + "': no answer about its Lease within "
					+ this.options.leaseDuration().toSeconds() + " s; publishing nothing until there is one");
		}
	}

	private InformerStartupException refusal(LeaseElection.LeaseRefusedException refused) {
		String namespace = this.options.leaseNamespace();
		if (refused.code() == 404) {
			return new InformerStartupException(
					"Delivery group '" + this.options.group() + "': cannot create its Lease in namespace '" + namespace
							+ "': the namespace does not exist",
					"Set informer.delivery.lease-namespace to an existing namespace (by default the pod's own), "
							+ "or create namespace '" + namespace + "'",
					refused.getCause());
		}
		if (refused.code() != 403) {
			return LeaseRequestFailures.startupFailure(this.options.group(), refused);
		}
		List<String> verbs = this.shardedInformers.isEmpty() ? RbacRules.LEADER_LEASE_VERBS
				: RbacRules.SHARDED_LEASE_VERBS;
		return new InformerStartupException(
				"Delivery group '" + this.options.group() + "' (informer.delivery.mode): this replica may not "
						+ refused.verb() + " Leases in namespace '" + namespace + "' (HTTP 403)",
				"Grant it a Role in namespace '" + namespace + "' with this rule (RbacRules prints the whole "
						+ "manifest):\n" + new RbacRules.Rule("coordination.k8s.io", List.of("leases"), verbs).toYaml(),
				refused.getCause());
	}

	private ObjectMeta leaseMeta(String name, boolean member) {
		ObjectMetaBuilder meta = new ObjectMetaBuilder().withName(name).withNamespace(this.options.leaseNamespace());
		if (member) {
			meta.addToLabels(DeliveryOptions.GROUP_LABEL, this.options.group());
		}
		return meta.build();
	}

	/**
	 * Catch what no callback says: a Lease whose renewals lapsed past the renew deadline
	 * and then succeeded again (the replica published nothing meanwhile), and members
	 * that expired.
	 */
	private void tick() {
		try {
			if (this.leader != null) {
				evaluateLeadership();
			}
			if (this.member != null) {
				refreshMembership();
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Delivery group '" + this.options.group() + "': " + NamespaceInformer.describe(ex)
					+ "; trying again in " + this.options.retryPeriod().toMillis() + " ms");
		}
	}

	private synchronized void evaluateLeadership() {
		LeaseElection election = this.leader;
		if (!this.running || election == null) {
			return;
		}
		DeliveryRole role = election.isHeld() ? DeliveryRole.LEADER : DeliveryRole.STANDBY;
		DeliveryRole previous = this.leaderRole;
		if (role == previous) {
			return;
		}
		this.leaderRole = role;
		this.handovers.incrementAndGet();
		if (role == DeliveryRole.LEADER) {
			logger.info("Delivery group '" + this.options.group() + "': " + this.options.identity()
					+ " became leader; replaying its caches, then publishing");
			for (ResourceInformer<?> informer : this.leaderInformers) {
				informer.replay((resource) -> true, "leader");
			}
		}
		else {
			logger.warn("Delivery group '" + this.options.group() + "': " + this.options.identity()
					+ " is no longer leader (Lease " + this.options.leaseNamespace() + "/"
					+ this.options.leaderLeaseName() + " held by " + election.holder() + "); stopped publishing");
		}
		publishRoleChange(DeliveryMode.LEADER, previous, role);
	}

	private synchronized void refreshMembership() {
		LeaseElection election = this.member;
		if (!this.running || election == null) {
			return;
		}
		List<String> live = liveMembers();
		if (election.isHeld() && !live.contains(this.options.identity())) {
			// this replica renewed its Lease: it is a member even if the list was older
			live.add(this.options.identity());
			live.sort(null);
		}
		ShardRanges next = election.isHeld() ? ShardRanges.of(live.indexOf(this.options.identity()), live.size())
				: ShardRanges.NONE;
		this.members = List.copyOf(live);
		ShardRanges previous = this.ranges;
		if (next.equals(previous)) {
			return;
		}
		DeliveryRole previousRole = this.shardRole;
		this.ranges = next;
		this.shardRole = next.isEmpty() ? DeliveryRole.DETACHED : DeliveryRole.MEMBER;
		this.rangeChanges.incrementAndGet();
		logger.info("Delivery group '" + this.options.group() + "': " + this.options.identity() + " owns "
				+ (next.isEmpty() ? "nothing" : next.describe()) + " of " + live.size() + " members " + live);
		if (!next.isEmpty()) {
			for (ResourceInformer<?> informer : this.shardedInformers) {
				if (this.serverSharding) {
					informer.relistForShards(RelistReason.SHARD_RANGE);
				}
				else {
					informer.replay((resource) -> next.owns(resource) && !previous.owns(resource), "shard-range");
				}
			}
		}
		publishRoleChange(DeliveryMode.SHARDED, previousRole, this.shardRole);
	}

	/**
	 * Return the holders of the group's live member Leases, sorted. A Lease is live while
	 * its last renewal plus its duration lies ahead.
	 */
	private List<String> liveMembers() {
		List<String> live = new ArrayList<>();
		Instant now = this.clock.instant();
		List<Lease> leases = this.client.leases()
			.inNamespace(this.options.leaseNamespace())
			.withLabel(DeliveryOptions.GROUP_LABEL, this.options.group())
			.list()
			.getItems();
		for (Lease lease : leases) {
			LeaseSpec spec = lease.getSpec();
			if (spec == null || spec.getHolderIdentity() == null || spec.getHolderIdentity().isEmpty()
					|| spec.getRenewTime() == null || spec.getLeaseDurationSeconds() == null) {
				continue;
			}
			Instant expires = spec.getRenewTime().toInstant().plusSeconds(spec.getLeaseDurationSeconds());
			if (now.isBefore(expires) && !live.contains(spec.getHolderIdentity())) {
				live.add(spec.getHolderIdentity());
			}
		}
		live.sort(null);
		return live;
	}

	private void publishRoleChange(DeliveryMode mode, DeliveryRole previous, DeliveryRole role) {
		ExecutorService events = this.events;
		if (events == null) {
			return;
		}
		LeaseElection leader = this.leader;
		DeliveryRoleChangedEvent event = new DeliveryRoleChangedEvent(mode, previous, role, this.options.group(),
				this.options.identity(), (leader != null) ? leader.holder() : null, this.members,
				this.ranges.describe());
		// never on the thread that renews the Lease: a slow listener must not cost it
		events.execute(() -> this.publisher.publish(event));
	}

	@Override
	public synchronized void stop() {
		this.running = false;
		LeaseElection leader = this.leader;
		if (leader != null) {
			leader.stop();
		}
		LeaseElection member = this.member;
		if (member != null) {
			member.stop();
		}
		if (this.scheduler != null) {
			this.scheduler.shutdownNow();
			this.scheduler = null;
		}
		if (this.events != null) {
			this.events.shutdown();
			this.events = null;
		}
		this.leader = null;
		this.member = null;
		this.leaderRole = DeliveryRole.STANDBY;
		this.shardRole = DeliveryRole.DETACHED;
		this.ranges = ShardRanges.NONE;
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
		long owned = 0;
		for (ResourceInformer<?> informer : this.shardedInformers) {
			owned += count(informer);
		}
		for (ResourceInformer<?> informer : this.leaderInformers) {
			owned += count(informer);
		}
		return owned;
	}

	private static long count(ResourceInformer<?> informer) {
		DeliveryGate gate = informer.gate();
		return informer.getCache().list().stream().filter((resource) -> gate.publishes((HasMetadata) resource)).count();
	}

	@Override
	public DeliverySnapshot snapshot() {
		Map<String, DeliveryMode> modes = new LinkedHashMap<>();
		this.registry.names().forEach((name) -> modes.put(name, this.options.modeOf(name)));
		LeaseElection leader = this.leader;
		DeliverySnapshot.Leadership leadership = null;
		if (!this.leaderInformers.isEmpty()) {
			boolean held = leader != null && leader.isHeld();
			leadership = new DeliverySnapshot.Leadership(held ? DeliveryRole.LEADER : DeliveryRole.STANDBY,
					this.options.leaderLeaseName(), (leader != null) ? leader.holder() : null,
					(leader != null) ? leader.lastRenewal() : null, (leader != null) ? leader.lastContact() : null,
					this.handovers.get(), (leader != null) ? leader.refusal() : null);
		}
		LeaseElection member = this.member;
		DeliverySnapshot.Sharding sharding = null;
		if (!this.shardedInformers.isEmpty()) {
			boolean held = member != null && member.isHeld() && !this.ranges.isEmpty();
			sharding = new DeliverySnapshot.Sharding(held ? DeliveryRole.MEMBER : DeliveryRole.DETACHED,
					this.options.memberLeaseName(), this.members, held ? this.ranges.describe() : List.of(),
					this.serverSharding, (member != null) ? member.lastRenewal() : null, this.rangeChanges.get(),
					(member != null) ? member.refusal() : null);
		}
		return new DeliverySnapshot(this.options.group(), this.options.identity(), this.options.leaseNamespace(), modes,
				leadership, sharding, this.clock.instant());
	}

}
