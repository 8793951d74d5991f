package dev.informer.runtime.replicas;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;
import dev.informer.watch.DeliverySnapshot;
import dev.informer.watch.KubernetesErrors;

/**
 * {@link DeliveryMode#SHARDED}: each replica holds a Lease of its own, labelled with the
 * group; the live Leases, sorted by holder, are the members, and member {@code i} of
 * {@code n} owns the {@code i}-th of {@code n} equal ranges of the uid hash
 * ({@link ShardRanges}). A replica publishes the objects of its range while its Lease
 * counts as held. When its range grows it replays the objects it gained; when its Lease
 * lapsed it keeps what it could not publish and replays once its Lease counts as held
 * again. With the API server's shard selectors it lists and watches its range only. A
 * member whose watches are stale stops its election ({@link StepDowns}): its Lease is
 * deleted, so the other members take its range over and replay it; it owes nothing
 * meanwhile, and rejoins with a new election once its watches are current.
 */
final class ShardedDelivery implements ReplicaDelivery {

	private static final Log logger = LogFactory.getLog(ShardedDelivery.class);

	private final KubernetesClient client;

	private final DeliveryOptions options;

	private final Clock clock;

	private final List<ReplicatedInformer> informers;

	private final RoleListener roles;

	private final DeliveryRecords records;

	private final MemberLeases memberLeases;

	private final AtomicLong rangeChanges = new AtomicLong();

	private volatile @Nullable LeaseElection election;

	private volatile ShardRanges ranges = ShardRanges.NONE;

	/**
	 * The range this replica last published: kept through a lapse, so that what the gate
	 * keeps back of it meanwhile is owed.
	 */
	private volatile ShardRanges published = ShardRanges.NONE;

	private volatile List<String> members = List.of();

	private final DeliveryGate gate = new DeliveryGate() {

		@Override
		public Verdict verdict(HasMetadata resource) {
			return ShardedDelivery.this.verdict(resource);
		}

		@Override
		public boolean holdsLease() {
			return ShardedDelivery.this.holdsLease();
		}

	};

	private volatile DeliveryRole role = DeliveryRole.DETACHED;

	private volatile boolean serverSharding;

	private final StepDowns stepDowns;

	private volatile @Nullable ScheduledExecutorService scheduler;

	/** When {@link #members} were last listed. */
	private volatile @Nullable Instant membersListedAt;

	ShardedDelivery(KubernetesClient client, DeliveryOptions options, Clock clock, List<ReplicatedInformer> informers,
			DeliveryRecords records, RoleListener roles) {
		this.client = client;
		this.options = options;
		this.clock = clock;
		this.informers = List.copyOf(informers);
		this.roles = roles;
		this.records = records;
		this.memberLeases = new MemberLeases(client, options, clock);
		this.stepDowns = new StepDowns(options, clock, informers, this::otherMembersLive);
	}

	@Override
	public List<ReplicatedInformer> informers() {
		return this.informers;
	}

	@Override
	public void start(ScheduledExecutorService scheduler, FirstRound firstRound) {
		this.scheduler = scheduler;
		LeaseElection election = newElection(scheduler);
		this.election = election;
		this.serverSharding = this.options.serverSharding() && detectServerSharding();
		for (ReplicatedInformer informer : this.informers) {
			informer.deliverThrough(this.gate, () -> this.serverSharding ? this.ranges.selector() : null, this.records);
		}
		// informers start with their range: they list only it when the server filters
		firstRound.await(election.start());
		refresh();
	}

	private LeaseElection newElection(ScheduledExecutorService scheduler) {
		return new LeaseElection(this.client,
				new ObjectMetaBuilder().withName(this.options.memberLeaseName())
					.withNamespace(this.options.leaseNamespace())
					.addToLabels(DeliveryOptions.GROUP_LABEL, this.options.group())
					.build(),
				this.options, this.clock, scheduler, LeaseElection.OnStop.DELETE,
				(changed) -> DeliveryCoordinator.runOn(scheduler, this::refresh));
	}

	/**
	 * Return whether other members were live when the members were last listed, within
	 * the lease duration: while this replica stands aside, they own the whole range.
	 */
	private boolean otherMembersLive() {
		Instant listed = this.membersListedAt;
		return listed != null
				&& Duration.between(listed, this.clock.instant()).compareTo(this.options.leaseDuration()) <= 0
				&& this.members.stream().anyMatch((member) -> !member.equals(this.options.identity()));
	}

	private boolean detectServerSharding() {
		try {
			boolean served = this.informers.get(0).servesShardSelectors(this.client);
			logger.info("Delivery group '" + this.options.group() + "': the API server "
					+ (served ? "filters lists and watches by shard range"
							: "does not serve shard selectors (feature gate ShardedListAndWatch); each replica "
									+ "watches every object and publishes its range"));
			return served;
		}
		catch (KubernetesClientException ex) {
			logger.warn("Delivery group '" + this.options.group()
					+ "': could not tell whether the API server serves shard selectors ("
					+ KubernetesErrors.describe(ex) + "); each replica watches every object");
			return false;
		}
	}

	@Override
	public DeliveryGate gate() {
		return this.gate;
	}

	/**
	 * Whether this replica's Lease counts as held and it owns a range: it may deliver the
	 * deletes of objects it handed over.
	 */
	private boolean holdsLease() {
		LeaseElection election = this.election;
		return election != null && election.isHeld() && !this.ranges.isEmpty();
	}

	private DeliveryGate.Verdict verdict(HasMetadata resource) {
		LeaseElection election = this.election;
		if (election == null) {
			return DeliveryGate.Verdict.NOT_OURS;
		}
		ShardRanges ranges = this.ranges;
		// held again after a lapse, but the range is not settled yet (until the next
		// tick): a change of the range published before is owed, as during the lapse
		if (election.isHeld() && !ranges.isEmpty()) {
			return ranges.owns(resource) ? DeliveryGate.Verdict.PUBLISH : DeliveryGate.Verdict.NOT_OURS;
		}
		return this.published.owns(resource) ? DeliveryGate.Verdict.LAPSED : DeliveryGate.Verdict.NOT_OURS;
	}

	@Override
	public void tick() {
		LeaseElection election = this.election;
		ScheduledExecutorService scheduler = this.scheduler;
		if (election != null && scheduler != null) {
			switch (this.stepDowns.judge(election.isHeld())) {
				case STEP_DOWN -> stepDown(election);
				case COMPETE -> {
					LeaseElection next = newElection(scheduler);
					this.election = next;
					next.start();
				}
				case STAY -> {
				}
			}
		}
		refresh();
	}

	/**
	 * Leave the group until the watches are current: the range is no longer this
	 * replica's to publish, nor owed after a lapse (the members that take it over replay
	 * it), and the member Lease is deleted, so that they do at their next tick.
	 */
	private void stepDown(LeaseElection election) {
		synchronized (this) {
			this.published = ShardRanges.NONE;
		}
		election.stop(DeliveryCoordinator.GIVE_UP_BOUND);
	}

	@Override
	public DeliverySnapshot.Staleness staleness() {
		return this.stepDowns.snapshot();
	}

	/**
	 * List the members (outside the lock: stop must not wait for the API server), then
	 * settle this replica's range, and replay what it owes.
	 */
	private void refresh() {
		LeaseElection election = this.election;
		if (election == null) {
			return;
		}
		List<String> live;
		try {
			live = this.memberLeases.live(election.isHeld() ? this.options.identity() : null);
		}
		catch (KubernetesClientException ex) {
			// the members are unknown: a replica that is not held owns nothing all the
			// same
			logger.warn("Delivery group '" + this.options.group() + "': cannot list its members ("
					+ KubernetesErrors.describe(ex) + "); trying again in " + this.options.retryPeriod().toMillis()
					+ " ms");
			live = null;
		}
		settle(election, live);
	}

	private synchronized void settle(LeaseElection election, @Nullable List<String> live) {
		if (this.election != election) {
			return;
		}
		boolean held = election.isHeld();
		ShardRanges next;
		if (!held) {
			next = ShardRanges.NONE;
		}
		else if (live == null) {
			next = this.ranges;
		}
		else {
			next = ShardRanges.of(live.indexOf(this.options.identity()), live.size());
		}
		ShardRanges previous = this.ranges;
		if (next.equals(previous)) {
			membersListed(live);
			if (held && !next.isEmpty()) {
				// a lapse shorter than a tick, or one the members never noticed
				this.informers.forEach((informer) -> informer.replayIfOwed("lapse"));
			}
			return;
		}
		DeliveryRole previousRole = this.role;
		ShardRanges before = this.published;
		if (!this.serverSharding && !before.isEmpty() && !next.isEmpty()) {
			// still a member, but part of what it published moves to another: it delivers
			// their deletes too, before the gate says they are not its own (with the
			// server's shard selectors it no longer sees them: the new owner catches up)
			this.informers
				.forEach((informer) -> informer.handOver((resource) -> before.owns(resource) && !next.owns(resource)));
		}
		this.ranges = next;
		// after the range: a snapshot that shows these members shows the range they give
		membersListed(live);
		this.role = next.isEmpty() ? DeliveryRole.DETACHED : DeliveryRole.MEMBER;
		this.rangeChanges.incrementAndGet();
		logger.info("Delivery group '" + this.options.group() + "': " + this.options.identity() + " owns "
				+ (next.isEmpty() ? "nothing" : next.describe()) + " of " + this.members.size() + " members "
				+ this.members);
		if (!next.isEmpty()) {
			ShardRanges delivered = this.published;
			this.published = next;
			Instant since = this.clock.instant().minus(this.options.takeoverWindow());
			for (ReplicatedInformer informer : this.informers) {
				if (this.serverSharding) {
					informer.relistForRange(delivered::owns, since);
				}
				else {
					informer.takeOver((resource) -> next.owns(resource) && !delivered.owns(resource), since,
							"shard-range");
				}
			}
		}
		this.roles.changed(DeliveryMode.SHARDED, previousRole, this.role);
	}

	private void membersListed(@Nullable List<String> live) {
		if (live != null) {
			this.members = List.copyOf(live);
			this.membersListedAt = this.clock.instant();
		}
	}

	@Override
	public void stop(Duration bound) {
		LeaseElection election;
		synchronized (this) {
			election = this.election;
			this.election = null;
			this.scheduler = null;
			this.ranges = ShardRanges.NONE;
			this.published = ShardRanges.NONE;
			this.role = DeliveryRole.DETACHED;
		}
		if (election != null) {
			election.stop(bound);
		}
	}

	List<String> members() {
		return this.members;
	}

	List<String> ownedRanges() {
		return this.ranges.describe();
	}

	DeliverySnapshot.Sharding snapshot() {
		LeaseElection election = this.election;
		boolean held = election != null && election.isHeld() && !this.ranges.isEmpty();
		return new DeliverySnapshot.Sharding(held ? DeliveryRole.MEMBER : DeliveryRole.DETACHED,
				this.options.memberLeaseName(), this.members, held ? this.ranges.describe() : List.of(),
				this.serverSharding, (election != null) ? election.lastRenewal() : null, this.rangeChanges.get(),
				(election != null) ? election.refusal() : null);
	}

}
