package dev.informer.it;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.informer.DeliveryMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seeded schedules of {@link FaultScheduleIT}, without a server: a seed replays the
 * same schedule, faults on one replica's path, Leases or listener never overlap (the
 * proxy could not heal them), some faults always overlap, and the seeds CI runs hit every
 * fault, the rejecting executor, the undecodable objects and an outage longer than
 * {@code replace-stalled-after}.
 */
class FaultScheduleTests {

	@Test
	void aSeedReplaysItsSchedule() {
		for (DeliveryMode mode : DeliveryMode.values()) {
			assertThat(FaultSchedule.of(42, mode, true)).isEqualTo(FaultSchedule.of(42, mode, true));
			assertThat(FaultSchedule.of(42, mode, true).describe())
				.isNotEqualTo(FaultSchedule.of(43, mode, true).describe());
		}
	}

	@Test
	void faultsOfOneKindNeverOverlapOnAReplicaButSeveralHappenAtOnce() {
		for (long seed = 0; seed < 2000; seed++) {
			for (DeliveryMode mode : DeliveryMode.values()) {
				FaultSchedule schedule = FaultSchedule.of(seed, mode, seed % 2 == 0);
				List<FaultSchedule.Step> steps = schedule.steps();
				assertThat(steps).as(schedule.describe()).hasSizeBetween(2, 5);
				for (int i = 0; i < steps.size(); i++) {
					for (int j = i + 1; j < steps.size(); j++) {
						assertThat(steps.get(i).conflicts(steps.get(j))).as(schedule.describe()).isFalse();
					}
				}
				boolean overlap = false;
				for (int i = 0; i + 1 < steps.size(); i++) {
					overlap |= steps.get(i + 1).at().compareTo(steps.get(i).at().plus(steps.get(i).length())) < 0;
				}
				assertThat(overlap).as("two faults at once in %s", schedule.describe()).isTrue();
				if (mode == DeliveryMode.ALL) {
					assertThat(schedule.faults()).as(schedule.describe())
						.doesNotContain(FaultSchedule.Fault.LEASE_REFUSED, FaultSchedule.Fault.LEASE_SLOW);
				}
			}
		}
	}

	@Test
	void theSeedsCiRunsHitEveryFault() {
		Set<FaultSchedule.Fault> faults = EnumSet.noneOf(FaultSchedule.Fault.class);
		boolean rejecting = false;
		boolean undecodable = false;
		boolean longOutage = false;
		for (DeliveryMode mode : DeliveryMode.values()) {
			for (boolean onChange : List.of(false, true)) {
				Long seed = FaultScheduleIT.CI_SEEDS.get(mode.name().toLowerCase() + "/" + onChange);
				assertThat(seed).as("the CI seed of %s, on-change %s", mode, onChange).isNotNull();
				FaultSchedule schedule = FaultSchedule.of(seed, mode, onChange);
				faults.addAll(schedule.faults());
				rejecting |= schedule.setup().rejectingExecutor();
				undecodable |= schedule.setup().undecodable();
				longOutage |= schedule.steps()
					.stream()
					.anyMatch((step) -> step.fault() == FaultSchedule.Fault.RESTART
							&& step.length().compareTo(FaultScheduleIT.REPLACE_STALLED_AFTER) > 0);
			}
		}
		assertThat(faults).containsExactlyInAnyOrder(FaultSchedule.Fault.values());
		assertThat(rejecting).as("a rejecting executor").isTrue();
		assertThat(undecodable).as("objects that cannot be decoded").isTrue();
		assertThat(longOutage).as("an outage longer than replace-stalled-after").isTrue();
	}

}
