package dev.informer.runtime.replicas;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.informer.DeliveryMode;
import dev.informer.test.MockApiServer;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gate of {@code informer.replicas.mode=leader} counts its Lease as held only while
 * this replica is the leader: a replay queued while it led and run after it lost the
 * Lease delivers nothing of its own, since in this mode one replica calls listeners. The
 * deletes of what it published are the exception: a former leader delivers them, as
 * replays, while it takes part in the group.
 */
class LeaderGateTests {

	private final MockApiServer mock = MockApiServer.crud();

	@AfterEach
	void stop() {
		this.mock.close();
	}

	@Test
	void aReplicaThatIsNotTheLeaderDoesNotCountAsHoldingItsLease() {
		LeaderDelivery delivery = new LeaderDelivery(this.mock.client(),
				new DeliveryOptions(DeliveryMode.LEADER, Map.of(), "g", "a", "ns", Duration.ofSeconds(15),
						Duration.ofSeconds(10), Duration.ofSeconds(2), false),
				Clock.systemUTC(), List.of(), DeliveryRecords.defaults(), (mode, previous, role) -> {
				});
		DeliveryGate gate = delivery.gate();
		assertThat(gate.verdict(TestResources.configMap("ns", "cm", "v"))).isEqualTo(DeliveryGate.Verdict.NOT_OURS);
		assertThat(gate.holdsLease()).as("a replica that holds no Lease").isFalse();
		assertThat(gate.deliversHandedOver()).as("a replica that has not started").isFalse();
	}

}
