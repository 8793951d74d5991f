package dev.informer.runtime.replicas;

import java.time.Instant;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ReplicatedInformer} of the tests of a delivery mode's own decisions: named
 * {@code configmaps}, it ignores every request to deliver, replay or hand over; a test
 * overrides what it records.
 */
interface QuietInformer extends ReplicatedInformer {

	@Override
	default String getName() {
		return "configmaps";
	}

	@Override
	default void deliverThrough(DeliveryGate gate, Supplier<@Nullable String> shardSelector, DeliveryRecords records) {
	}

	@Override
	default void replay(Predicate<? super HasMetadata> gained, String reason) {
	}

	@Override
	default void handOver(Predicate<? super HasMetadata> moved) {
	}

	@Override
	default void deliverOwedDeletes() {
	}

	@Override
	default void replayIfOwed(String reason) {
	}

	@Override
	default void relistForRange(Predicate<? super HasMetadata> delivered, Instant since) {
	}

	@Override
	default boolean servesShardSelectors(KubernetesClient client) {
		return false;
	}

}
