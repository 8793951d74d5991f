package dev.informer.runtime;

import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.informer.runtime.listeners.BacklogOptions;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.runtime.replicas.DeliveryGate;
import dev.informer.runtime.replicas.DeliveryRecords;
import dev.informer.watch.DeliveryObserver;
import dev.informer.watch.ListObserver;

/**
 * What the watches of an informer run with, read from it when it starts; the suppliers
 * are asked on each use, as replica delivery changes them while the informer runs.
 *
 * @param publisher where events go
 * @param retryPolicy whether fabric8 retries after an error
 * @param recovery when a fabric8 informer that stopped working is replaced
 * @param backlog the bound of the changes each watch holds for listeners
 * @param scheduler the informer's recovery thread
 * @param listObserver told of each list
 * @param deliveryObserver told of each delivered event
 * @param gate which objects this replica publishes
 * @param shardSelector the shard range this replica lists and watches, or {@code null}
 * @param records the bounds of what the replica gate keeps for later delivery
 */
record WatchSettings(InformerEventPublisher publisher, RetryPolicy retryPolicy, RecoveryOptions recovery,
		BacklogOptions backlog, ScheduledExecutorService scheduler, ListObserver listObserver,
		Supplier<DeliveryObserver> deliveryObserver, Supplier<DeliveryGate> gate,
		Supplier<@Nullable String> shardSelector, Supplier<DeliveryRecords> records) {

}
