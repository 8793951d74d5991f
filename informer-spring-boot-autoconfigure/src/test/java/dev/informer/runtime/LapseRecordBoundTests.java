package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.replicas.DeliveryGate;
import dev.informer.runtime.replicas.DeliveryRecords;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Lease lapse with more changes than the record of a lapse keeps (issue 32, point 7):
 * the record stays within its bound, counts the overflow, and falls back to a whole
 * replay, so that a listener that applies what it receives ends equal to the server.
 */
class LapseRecordBoundTests {

	@AutoClose
	private final InformerMock mock = new InformerMock();

	private final AtomicReference<DeliveryGate.Verdict> verdict = new AtomicReference<>(DeliveryGate.Verdict.PUBLISH);

	private final HandoverDeletesTests.ContractMap listener = new HandoverDeletesTests.ContractMap();

	private ResourceInformer<ConfigMap> informer;

	@Test
	void aLapseWithMoreChangesThanTheBoundFallsBackToAWholeReplayAndEndsEqualToTheServer() throws Exception {
		DeliveryRecords records = new DeliveryRecords(Duration.ofMinutes(10), 100, 3, Clock.systemUTC());
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener(this.listener);
		this.informer = this.mock.stopping(TestWatches.configMaps(Clock.systemUTC(), publisher, Duration.ZERO, "apps"));
		this.informer.deliverThrough((resource) -> this.verdict.get(), () -> null, records);
		for (int i = 0; i < 4; i++) {
			create("cm-" + i, "v0");
		}
		this.informer.start(this.mock.client(), List.of()).get(10, TimeUnit.SECONDS);
		await().until(() -> this.listener.view().size() == 4);
		this.verdict.set(DeliveryGate.Verdict.LAPSED);
		create("cm-0", "v1");
		create("cm-1", "v1");
		this.mock.client().configMaps().inNamespace("apps").withName("cm-2").delete();
		for (int i = 4; i < 10; i++) {
			create("cm-" + i, "v0");
		}
		await().until(() -> this.informer.getCache().list().size() == 9 && backlog() == 0);
		assertThat(records.missedChanges()).as("states kept through the lapse").isLessThanOrEqualTo(3);
		assertThat(records.missedOverflows()).isEqualTo(1);
		// the Lease counts as held again
		this.verdict.set(DeliveryGate.Verdict.PUBLISH);
		this.informer.replayIfOwed("lapse");
		await().until(() -> this.listener.replays() == 1);
		assertThat(values(this.listener.view())).isEqualTo(values(server()));
		assertThat(records.missedChanges()).isZero();
		assertThat(records.tombstones()).isZero();
	}

	private Map<String, HasMetadata> server() {
		return this.mock.client()
			.configMaps()
			.inNamespace("apps")
			.list()
			.getItems()
			.stream()
			.collect(Collectors.toMap((cm) -> cm.getMetadata().getName(), (cm) -> cm));
	}

	private static Map<String, String> values(Map<String, HasMetadata> view) {
		return view.entrySet()
			.stream()
			.collect(Collectors.toMap(Map.Entry::getKey,
					(entry) -> ((ConfigMap) entry.getValue()).getData().get("value")));
	}

	private long backlog() {
		return this.informer.getWatches().get(0).snapshot().cache().backlog();
	}

	private void create(String name, String value) {
		this.mock.client()
			.configMaps()
			.resource(TestResources.configMap("apps", name, value))
			.createOr((op) -> op.update());
	}

}
