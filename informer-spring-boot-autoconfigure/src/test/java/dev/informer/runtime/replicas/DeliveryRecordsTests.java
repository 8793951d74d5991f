package dev.informer.runtime.replicas;

import java.time.Duration;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.test.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bounds of what a replica gate remembers for later (issue 32, points 1 and 7):
 * tombstones age out and are capped by count, the record of a lapse is capped and falls
 * back to a whole replay; each is counted for the meters.
 */
class DeliveryRecordsTests {

	private final MutableClock clock = MutableClock.startingAt("2026-01-01T00:00:00Z");

	@Test
	void tombstonesAreCappedByCountOldestFirstAndCounted() {
		DeliveryRecords records = new DeliveryRecords(Duration.ofMinutes(10), 2, 10, this.clock);
		Tombstones<ConfigMap> tombstones = new Tombstones<>(records);
		tombstones.dropped(configMap("a", "1"), null, false);
		tombstones.dropped(configMap("b", "2"), null, false);
		tombstones.dropped(configMap("c", "3"), null, false);
		assertThat(records.tombstones()).isEqualTo(2);
		assertThat(records.tombstonesDropped()).isEqualTo(1);
		assertThat(tombstones.take((resource) -> true))
			.extracting((tombstone) -> tombstone.resource().getMetadata().getName())
			.containsExactly("b", "c");
		assertThat(records.tombstones()).isZero();
	}

	@Test
	void tombstonesOlderThanTheRetentionAreDroppedAndCounted() {
		DeliveryRecords records = new DeliveryRecords(Duration.ofMinutes(10), 100, 10, this.clock);
		Tombstones<ConfigMap> tombstones = new Tombstones<>(records);
		tombstones.dropped(configMap("old", "1"), null, false);
		this.clock.advance(Duration.ofMinutes(6));
		tombstones.dropped(configMap("young", "2"), null, false);
		this.clock.advance(Duration.ofMinutes(5));
		assertThat(tombstones.take((resource) -> true))
			.extracting((tombstone) -> tombstone.resource().getMetadata().getName())
			.containsExactly("young");
		assertThat(records.tombstonesDropped()).isEqualTo(1);
		assertThat(records.tombstones()).isZero();
	}

	@Test
	void tombstonesNotOwedAreTakenOnlyWhenSelectedAndOwedOnesAlways() {
		DeliveryRecords records = new DeliveryRecords(Duration.ofMinutes(10), 100, 10, this.clock);
		Tombstones<ConfigMap> tombstones = new Tombstones<>(records);
		tombstones.dropped(configMap("theirs", "1"), null, false);
		assertThat(tombstones.isOwed()).isFalse();
		tombstones.dropped(configMap("mine", "2"), null, true);
		assertThat(tombstones.isOwed()).isTrue();
		assertThat(tombstones.take((resource) -> false))
			.extracting((tombstone) -> tombstone.resource().getMetadata().getName())
			.containsExactly("mine");
		assertThat(records.tombstones()).isEqualTo(1);
	}

	@Test
	void aTombstoneIsOwedWhileItIsKeptAndNoLonger() {
		DeliveryRecords records = new DeliveryRecords(Duration.ofMinutes(10), 2, 10, this.clock);
		Tombstones<ConfigMap> tombstones = new Tombstones<>(records);
		tombstones.dropped(configMap("a", "1"), null, true);
		tombstones.dropped(configMap("a", "2"), null, false);
		assertThat(tombstones.isOwed()).as("the same object dropped again for another replica").isFalse();
		tombstones.dropped(configMap("b", "3"), null, true);
		tombstones.dropped(configMap("c", "4"), null, false);
		tombstones.dropped(configMap("d", "5"), null, false);
		assertThat(tombstones.isOwed()).as("the owed one dropped by the count bound").isFalse();
		Tombstones<ConfigMap> next = new Tombstones<>(records);
		tombstones.dropped(configMap("e", "6"), null, true);
		tombstones.moveTo(next);
		assertThat(tombstones.isOwed()).as("moved away").isFalse();
		assertThat(next.isOwed()).as("moved to the next watch").isTrue();
		this.clock.advance(Duration.ofMinutes(11));
		// aged out: no replay will deliver it, so nothing is owed; an event must not
		// start a whole replay for it
		assertThat(next.isOwed()).as("older than the retention").isFalse();
		next.dropped(configMap("f", "7"), null, true);
		assertThat(next.isOwed()).isTrue();
		next.clear();
		assertThat(next.isOwed()).as("cleared").isFalse();
	}

	@Test
	void aLapseRecordPastItsBoundForgetsItsStatesAndOwesAWholeReplay() {
		DeliveryRecords records = new DeliveryRecords(Duration.ofMinutes(10), 100, 2, this.clock);
		MissedChanges<ConfigMap> missed = new MissedChanges<>(records);
		missed.missed(update("a", "1", "2"));
		missed.missed(update("b", "3", "4"));
		assertThat(records.missedChanges()).isEqualTo(2);
		missed.missed(update("c", "5", "6"));
		missed.missed(new ResourceAddedEvent<>("configmaps", ConfigMap.class, configMap("d", "7"), false));
		assertThat(records.missedChanges()).as("states kept past the bound").isZero();
		assertThat(records.missedOverflows()).isEqualTo(1);
		assertThat(missed.isOwed()).isTrue();
		// a relist is seeded with what listeners were handed; the whole replay stays owed
		Map<String, ConfigMap> seen = Map.of("apps/a", configMap("a", "2"));
		assertThat(missed.undo(seen)).isEqualTo(seen);
		assertThat(missed.isOwed()).isTrue();
		assertThat(missed.take()).isEmpty();
		assertThat(missed.isOwed()).isFalse();
	}

	private static ResourceUpdatedEvent<ConfigMap> update(String name, String from, String to) {
		return new ResourceUpdatedEvent<>("configmaps", ConfigMap.class, configMap(name, from), configMap(name, to));
	}

	private static ConfigMap configMap(String name, String resourceVersion) {
		return new ConfigMapBuilder().withNewMetadata()
			.withNamespace("apps")
			.withName(name)
			.withUid("uid-" + name)
			.withResourceVersion(resourceVersion)
			.endMetadata()
			.build();
	}

}
