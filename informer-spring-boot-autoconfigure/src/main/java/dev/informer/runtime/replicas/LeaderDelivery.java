package dev.informer.runtime.replicas;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;
import dev.informer.watch.DeliverySnapshot;

/**
 * {@link DeliveryMode#LEADER}: the replicas compete for the group's Lease; only the
 * holder publishes, while its Lease counts as held. A replica that becomes leader first
 * replays its caches; a leader whose renewals lapsed and that no other replica replaced
 * keeps what it could not publish and replays once its Lease counts as held again.
 */
final class LeaderDelivery implements ReplicaDelivery {

	private static final Log logger = LogFactory.getLog(LeaderDelivery.class);

	private final KubernetesClient client;

	private final DeliveryOptions options;

	private final Clock clock;

	private final List<ReplicatedInformer> informers;

	private final RoleListener roles;

	private final AtomicLong handovers = new AtomicLong();

	private volatile @Nullable LeaseElection election;

	private volatile DeliveryRole role = DeliveryRole.STANDBY;

	LeaderDelivery(KubernetesClient client, DeliveryOptions options, Clock clock, List<ReplicatedInformer> informers,
			RoleListener roles) {
		this.client = client;
		this.options = options;
		this.clock = clock;
		this.informers = List.copyOf(informers);
		this.roles = roles;
	}

	@Override
	public List<ReplicatedInformer> informers() {
		return this.informers;
	}

	@Override
	public void start(ScheduledExecutorService scheduler, FirstRound firstRound) {
		LeaseElection election = new LeaseElection(this.client,
				new ObjectMetaBuilder().withName(this.options.leaderLeaseName())
					.withNamespace(this.options.leaseNamespace())
					.build(),
				this.options, this.clock, scheduler, LeaseElection.OnStop.RELEASE,
				(changed) -> DeliveryCoordinator.runOn(scheduler, this::evaluate));
		this.election = election;
		for (ReplicatedInformer informer : this.informers) {
			informer.deliverThrough(this::verdict, () -> null);
		}
		// the first leader publishes its initial list live rather than as a replay
		firstRound.await(election.start());
		evaluate();
	}

	@Override
	public DeliveryGate gate() {
		return this::verdict;
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
		evaluate();
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
			return;
		}
		this.role = next;
		this.handovers.incrementAndGet();
		if (next == DeliveryRole.LEADER) {
			logger.info("Delivery group '" + this.options.group() + "': " + this.options.identity()
					+ " became leader; replaying its caches, then publishing");
			this.informers.forEach((informer) -> informer.replay((resource) -> true, "leader"));
		}
		else {
			logger.warn("Delivery group '" + this.options.group() + "': " + this.options.identity()
					+ " is no longer leader (Lease " + this.options.leaseNamespace() + "/"
					+ this.options.leaderLeaseName() + " held by " + election.holder() + "); stopped publishing");
		}
		this.roles.changed(DeliveryMode.LEADER, previous, next);
	}

	@Override
	public void stop(Duration bound) {
		LeaseElection election = this.election;
		this.election = null;
		this.role = DeliveryRole.STANDBY;
		if (election != null) {
			election.stop(bound);
		}
	}

	@Nullable String holder() {
		LeaseElection election = this.election;
		return (election != null) ? election.holder() : null;
	}

	DeliverySnapshot.Leadership snapshot() {
		LeaseElection election = this.election;
		boolean held = election != null && election.isHeld();
		return new DeliverySnapshot.Leadership(held ? DeliveryRole.LEADER : DeliveryRole.STANDBY,
				this.options.leaderLeaseName(), (election != null) ? election.holder() : null,
				(election != null) ? election.lastRenewal() : null, (election != null) ? election.lastContact() : null,
				this.handovers.get(), (election != null) ? election.refusal() : null);
	}

}
