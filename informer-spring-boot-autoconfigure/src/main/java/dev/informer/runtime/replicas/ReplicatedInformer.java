package dev.informer.runtime.replicas;

import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.jspecify.annotations.Nullable;

import dev.informer.ResourceCache;
import dev.informer.watch.Watch;

/**
 * What sharing delivery among replicas needs of an informer: its cache, a gate before its
 * listeners, replays of what this replica takes over or owes, and relists for a new shard
 * range.
 *
 * @since 0.1.0
 */
public interface ReplicatedInformer {

	/**
	 * Return the informer's name.
	 * @return the name
	 */
	String getName();

	/**
	 * Return the informer's watches, whose snapshots tell whether this replica's caches
	 * are current enough for it to publish for the group.
	 * @return the watches, one per namespace or one for all
	 */
	default List<Watch> getWatches() {
		return List.of();
	}

	/**
	 * Return the informer's cache.
	 * @return the cache
	 */
	ResourceCache<?> getCache();

	/**
	 * Publish through {@code gate} from now on, and list and watch with the shard
	 * selector {@code shardSelector} gives when a watch (re)starts.
	 * @param gate which objects this replica publishes
	 * @param shardSelector the API server shard selector, or {@code null} for all objects
	 */
	default void deliverThrough(DeliveryGate gate, Supplier<@Nullable String> shardSelector) {
		deliverThrough(gate, shardSelector, DeliveryRecords.defaults());
	}

	/**
	 * Publish through {@code gate} from now on, and list and watch with the shard
	 * selector {@code shardSelector} gives when a watch (re)starts; what the gates keep
	 * back for later is bounded and counted by {@code records}.
	 * @param gate which objects this replica publishes
	 * @param shardSelector the API server shard selector, or {@code null} for all objects
	 * @param records the bounds and meters of what the gates keep for later delivery
	 */
	void deliverThrough(DeliveryGate gate, Supplier<@Nullable String> shardSelector, DeliveryRecords records);

	/**
	 * Replay the cached objects {@code gained} selects, in order with each watch's
	 * events.
	 * @param gained the objects this replica took over
	 * @param reason why, as {@link dev.informer.event.ResourcesReplayedEvent} says
	 */
	void replay(Predicate<? super HasMetadata> gained, String reason);

	/**
	 * Take over the cached objects {@code gained} selects from another replica: replay
	 * them as {@link #replay} does, then have each watch catch up on their deletes made
	 * since {@code since}, which the replica that published the objects may not have
	 * delivered and this replica may not have seen (it listed again meanwhile), and
	 * replay those deletes too.
	 * @param gained the objects this replica took over
	 * @param since from when their deletes may have been delivered by nobody
	 * @param reason why, as {@link dev.informer.event.ResourcesReplayedEvent} says
	 */
	default void takeOver(Predicate<? super HasMetadata> gained, Instant since, String reason) {
		replay(gained, reason);
	}

	/**
	 * Remember, in each watch's gate, the cached objects {@code moved} selects as handed
	 * over to another replica, so that this replica delivers their deletes too while its
	 * gate lets it ({@link DeliveryGate#deliversHandedOver()}): the new owner may never
	 * have seen them. Call before the gate stops publishing them, or as soon as it did.
	 * @param moved the objects another replica publishes from now on
	 */
	void handOver(Predicate<? super HasMetadata> moved);

	/**
	 * Deliver now, as replays, the deletes each watch's gate kept back of objects this
	 * replica's listeners were handed and another replica publishes now (a new leader):
	 * those owed through a lapse and those of objects handed over ({@link #handOver}).
	 * The replica that took over may never have seen them.
	 */
	void deliverOwedDeletes();

	/**
	 * Replay every owned object of each watch whose gate kept back a change this replica
	 * owed, in order with the watch's events. Call once the gate publishes again.
	 * @param reason why, as {@link dev.informer.event.ResourcesReplayedEvent} says
	 */
	void replayIfOwed(String reason);

	/**
	 * Relist every watch with the current shard selector, each once a list permit lets
	 * it, flagging the adds of objects this replica did not publish before as replays.
	 * Watches not running are left alone; a relist that fails is retried.
	 * @param delivered the objects this replica published before, by its previous range
	 * @param since from when the deletes of the objects gained may have been delivered by
	 * nobody: each watch catches up on them from then
	 */
	void relistForRange(Predicate<? super HasMetadata> delivered, Instant since);

	/**
	 * Return whether the API server filters this informer's lists by shard selector.
	 * @param client the client
	 * @return whether shard selectors are served
	 */
	boolean servesShardSelectors(KubernetesClient client);

}
