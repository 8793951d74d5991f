package dev.informer.runtime.replicas;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;

import io.fabric8.kubernetes.api.model.HasMetadata;

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;
import dev.informer.watch.DeliverySnapshot;

/**
 * One way of sharing delivery among replicas, {@link LeaderDelivery} or
 * {@link ShardedDelivery}: holds its Lease, decides what this replica publishes (the
 * {@link DeliveryGate} of its informers), and replays what this replica owes when it may
 * publish again. Driven by {@link DeliveryCoordinator}.
 */
interface ReplicaDelivery {

	/**
	 * Start competing for the Lease, and give the informers their gate.
	 * @param scheduler the coordinator's thread, for Lease callbacks
	 * @param firstRound told the future of the first Lease round, to wait for it
	 */
	void start(ScheduledExecutorService scheduler, FirstRound firstRound);

	/**
	 * Catch up with what no callback says: a Lease that lapsed or healed, members that
	 * expired. Called every retry period on the coordinator's thread.
	 */
	void tick();

	/**
	 * Stop, giving the Lease up within {@code bound}.
	 * @param bound the longest time to wait for the API server
	 */
	void stop(Duration bound);

	/**
	 * Return the informers this delivery gates.
	 * @return the informers
	 */
	List<ReplicatedInformer> informers();

	/**
	 * Return how many cached objects this replica publishes now. Counts the caches: for
	 * metrics scrapes, not for every event.
	 * @return the number of owned objects
	 */
	default long ownedObjects() {
		DeliveryGate gate = gate();
		long owned = 0;
		for (ReplicatedInformer informer : informers()) {
			owned += informer.getCache()
				.list()
				.stream()
				.filter((resource) -> gate.publishes((HasMetadata) resource))
				.count();
		}
		return owned;
	}

	/**
	 * Return whether this replica's watches are current enough for it to publish, and
	 * whether it stepped down because they were not.
	 * @return the staleness
	 */
	default DeliverySnapshot.Staleness staleness() {
		return DeliverySnapshot.Staleness.NONE;
	}

	/**
	 * Return the gate this delivery puts before the listeners of its informers.
	 * @return the gate
	 */
	DeliveryGate gate();

	/**
	 * Waits for a first Lease round, failing startup on a refusal.
	 */
	@FunctionalInterface
	interface FirstRound {

		void await(CompletableFuture<Void> round);

	}

	/**
	 * Told when this replica's role changes.
	 */
	@FunctionalInterface
	interface RoleListener {

		void changed(DeliveryMode mode, DeliveryRole previous, DeliveryRole role);

	}

}
