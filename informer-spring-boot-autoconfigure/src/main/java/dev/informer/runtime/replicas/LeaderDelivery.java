package dev.informer.runtime.replicas;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
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
 * {@link DeliveryMode#LEADER}: the replicas compete for the group's Lease; only the
 * holder publishes, while its Lease counts as held. A replica that becomes leader first
 * replays its caches, then the deletes it catches up on since a window before it took
 * over (the previous leader may have been cut off before it saw them, and this replica
 * may have listed again across them); a leader whose renewals lapsed and that no other
 * replica replaced keeps what it could not publish and replays once its Lease counts as
 * held again. A replica that stops leading delivers the deletes of what its listeners
 * hold, as replays, while they are kept: those it sees afterwards, and once another
 * replica leads, those its lapse kept back (the new leader may never have seen those
 * objects). A replica whose watches are stale gives the Lease up, or stops competing for
 * it, until they are current again ({@link StepDowns}).
 */
final class LeaderDelivery implements ReplicaDelivery {

	private static final Log logger = LogFactory.getLog(LeaderDelivery.class);

	private final KubernetesClient client;

	private final DeliveryOptions options;

	private final Clock clock;

	private final List<ReplicatedInformer> informers;

	private final RoleListener roles;

	private final DeliveryRecords records;

	private final AtomicLong handovers = new AtomicLong();

	private volatile @Nullable LeaseElection election;

	private volatile DeliveryRole role = DeliveryRole.STANDBY;

	private final StepDowns stepDowns;

	private volatile @Nullable ScheduledExecutorService scheduler;

	// what this replica saw of the Lease while standing aside; coordinator thread
	private volatile @Nullable String observedHolder;

	private @Nullable String observedRecord;

	private @Nullable Instant otherRenewalSeenAt;

	// what this replica saw of other holders, across its elections and reads
	private final LeaseSightings sightings = new LeaseSightings();

	// when this replica last stopped leading; under evaluate's lock
	private @Nullable Instant ledUntil;

	LeaderDelivery(KubernetesClient client, DeliveryOptions options, Clock clock, List<ReplicatedInformer> informers,
			DeliveryRecords records, RoleListener roles) {
		this.client = client;
		this.options = options;
		this.clock = clock;
		this.informers = List.copyOf(informers);
		this.roles = roles;
		this.records = records;
		this.stepDowns = new StepDowns(options, clock, informers, this::anotherHolderRenews);
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
		for (ReplicatedInformer informer : this.informers) {
			informer.deliverThrough(gate(), () -> null, this.records);
		}
		// the first leader publishes its initial list live rather than as a replay
		firstRound.await(election.start());
		evaluate();
	}

	private LeaseElection newElection(ScheduledExecutorService scheduler) {
		return new LeaseElection(this.client,
				new ObjectMetaBuilder().withName(this.options.leaderLeaseName())
					.withNamespace(this.options.leaseNamespace())
					.build(),
				this.options, this.clock, scheduler, LeaseElection.OnStop.RELEASE,
				(changed) -> DeliveryCoordinator.runOn(scheduler, this::evaluate), this.sightings);
	}

	/**
	 * Read the group's Lease, while this replica stands aside and has no election of its
	 * own to tell it, and return whether another holder renewed it within the lease
	 * duration (judged by when this replica saw its record change, as elections judge
	 * it). A Lease that cannot be read tells nothing.
	 */
	private boolean anotherHolderRenews() {
		Instant now = this.clock.instant();
		try {
			Lease lease = this.client.leases()
				.inNamespace(this.options.leaseNamespace())
				.withName(this.options.leaderLeaseName())
				.get();
			LeaseSpec spec = (lease != null) ? lease.getSpec() : null;
			String holder = (spec != null) ? spec.getHolderIdentity() : null;
			this.observedHolder = (holder == null || holder.isEmpty()) ? null : holder;
			if (spec != null && holder != null && !holder.isEmpty() && !holder.equals(this.options.identity())) {
				String record = holder + "@" + spec.getRenewTime();
				this.sightings.seen(LeaseSightings.describe(holder, spec.getRenewTime(), spec.getLeaseTransitions()),
						now);
				if (!record.equals(this.observedRecord)) {
					this.observedRecord = record;
					this.otherRenewalSeenAt = now;
				}
			}
		}
		catch (KubernetesClientException ex) {
			logger.debug("Delivery group '" + this.options.group() + "': cannot read its Lease ("
					+ KubernetesErrors.describe(ex) + ")");
		}
		Instant seen = this.otherRenewalSeenAt;
		return seen != null && Duration.between(seen, now).compareTo(this.options.leaseDuration()) <= 0;
	}

	@Override
	public DeliveryGate gate() {
		return new DeliveryGate() {

			@Override
			public Verdict verdict(HasMetadata resource) {
				return LeaderDelivery.this.verdict(resource);
			}

			@Override
			public boolean holdsLease() {
				// the leader's Lease: a standby delivers nothing of its own, not even a
				// replay
				LeaseElection election = LeaderDelivery.this.election;
				return election != null && election.isHeld();
			}

			@Override
			public boolean deliversHandedOver() {
				// a former leader, while it takes part in the group: the deletes of
				// what it published, which the new leader may never have seen
				return LeaderDelivery.this.election != null;
			}

		};
	}

	private DeliveryGate.Verdict verdict(HasMetadata resource) {
		LeaseElection election = this.election;
		if (election == null) {
			return DeliveryGate.Verdict.NOT_OURS;
		}
		if (election.isHeld()) {
			return DeliveryGate.Verdict.PUBLISH;
		}
		return election.isLapsed() ? DeliveryGate.Verdict.LAPSED : DeliveryGate.Verdict.NOT_OURS;
	}

	@Override
	public void tick() {
		LeaseElection election = this.election;
		ScheduledExecutorService scheduler = this.scheduler;
		if (election != null && scheduler != null) {
			switch (this.stepDowns.judge(election.isHeld())) {
				case STEP_DOWN -> election.stop(DeliveryCoordinator.GIVE_UP_BOUND);
				case COMPETE -> {
					LeaseElection next = newElection(scheduler);
					this.election = next;
					next.start();
				}
				case STAY -> {
				}
			}
		}
		evaluate();
	}

	@Override
	public DeliverySnapshot.Staleness staleness() {
		return this.stepDowns.snapshot();
	}

	private synchronized void evaluate() {
		LeaseElection election = this.election;
		if (election == null) {
			return;
		}
		DeliveryRole next = election.isHeld() ? DeliveryRole.LEADER : DeliveryRole.STANDBY;
		DeliveryRole previous = this.role;
		if (next == previous) {
			if (next == DeliveryRole.LEADER) {
				// a lapse shorter than a tick: what the gate kept back is owed
				this.informers.forEach((informer) -> informer.replayIfOwed("lapse"));
			}
			else if (!election.isLapsed() && this.ledUntil != null) {
				// another replica leads: it may never see the deletes of what this one
				// published (its catch-up cannot reach back past an API server restart)
				this.informers.forEach(ReplicatedInformer::deliverOwedDeletes);
			}
			return;
		}
		this.role = next;
		this.handovers.incrementAndGet();
		if (next == DeliveryRole.LEADER) {
			logger.info("Delivery group '" + this.options.group() + "': " + this.options.identity()
					+ " became leader; replaying its caches, then publishing");
			Instant since = takeoverSince();
			this.informers.forEach((informer) -> informer.takeOver((resource) -> true, since, "leader"));
		}
		else {
			// what its listeners hold: it delivers their deletes too, while they are kept
			this.informers.forEach((informer) -> informer.handOver((resource) -> true));
			this.ledUntil = this.clock.instant();
			logger.warn("Delivery group '" + this.options.group() + "': " + this.options.identity()
					+ " is no longer leader (Lease " + this.options.leaseNamespace() + "/"
					+ this.options.leaderLeaseName() + " held by " + holder() + "); stopped publishing");
		}
		this.roles.changed(DeliveryMode.LEADER, previous, next);
	}

	/**
	 * Return from when this new leader catches up on deletes: a takeover window before
	 * now, or before it last saw the previous holder's record change, whichever is
	 * earlier. The previous leader published until at most its renew deadline after its
	 * last renewal, and a takeover can come long after that when nobody could take the
	 * Lease meanwhile (the API server down, Lease requests refused): a window counted
	 * from the takeover alone would then start after deletes nobody delivered. A record
	 * seen before this replica last stopped leading tells nothing: this replica led
	 * since, and what its own lapse kept back it replays itself.
	 */
	private Instant takeoverSince() {
		Instant now = this.clock.instant();
		Duration window = this.options.takeoverWindow();
		Instant since = now.minus(window);
		Instant seenAt = this.sightings.firstSeen();
		if (seenAt != null) {
			Instant ledUntil = this.ledUntil;
			Instant anchored = seenAt.minus(window);
			if ((ledUntil == null || ledUntil.isBefore(seenAt)) && anchored.isBefore(since)) {
				since = anchored;
			}
		}
		return since;
	}

	@Override
	public void stop(Duration bound) {
		LeaseElection election = this.election;
		this.election = null;
		this.scheduler = null;
		this.role = DeliveryRole.STANDBY;
		if (election != null) {
			election.stop(bound);
		}
	}

	@Nullable String holder() {
		LeaseElection election = this.election;
		if (this.stepDowns.isSteppedDown()) {
			return this.observedHolder;
		}
		return (election != null) ? election.holder() : null;
	}

	DeliverySnapshot.Leadership snapshot() {
		LeaseElection election = this.election;
		boolean held = election != null && election.isHeld();
		return new DeliverySnapshot.Leadership(held ? DeliveryRole.LEADER : DeliveryRole.STANDBY,
				this.options.leaderLeaseName(), holder(), (election != null) ? election.lastRenewal() : null,
				(election != null) ? election.lastContact() : null, this.handovers.get(),
				(election != null) ? election.refusal() : null);
	}

}
