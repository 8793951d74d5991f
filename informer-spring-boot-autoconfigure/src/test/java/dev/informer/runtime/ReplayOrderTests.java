package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.event.ResourcesReplayedEvent;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.replicas.DeliveryGate;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A replay (a replica taking objects over) is ordered with the events queued when it is
 * asked for: it replays what listeners will have seen once those are delivered, never a
 * change queued after it, which listeners then get as it happened. With a slow listener a
 * replay waits behind a backlog while changes go on; if it replayed the cache as it is
 * when its turn comes, a listener would see a state replayed and then the change to that
 * same state, whose old state is not the one it last saw (found by
 * {@code FaultScheduleIT} seed 951: a replayed add of {@code d-9} at 1955, then its add
 * at 1955).
 */
class ReplayOrderTests {

	@AutoClose
	private final InformerMock mock = new InformerMock();

	private ResourceInformer<ConfigMap> informer;

	@Test
	void aReplayWaitingBehindASlowListenerReplaysWhatWasQueuedBeforeItNotWhatChangedSince() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		Recorder recorder = new Recorder(release);
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener(recorder);
		this.informer = this.mock.stopping(TestWatches.configMaps(Clock.systemUTC(), publisher, Duration.ZERO, "apps"));
		this.informer.deliverThrough((resource) -> DeliveryGate.Verdict.PUBLISH, () -> null);
		ConfigMap changing = create("changing", "v1");
		this.informer.start(this.mock.client(), List.of()).get(10, TimeUnit.SECONDS);
		await().until(() -> recorder.received().contains("add changing v1"));
		// the listener is slow: it holds the queue on the next event
		create("slow", "v1");
		await().until(recorder::blocked);
		this.informer.replay((resource) -> true, "shard-range");
		changing.getData().put("value", "v2");
		this.mock.client().resource(changing).update();
		create("created", "v1");
		await().until(() -> this.informer.getCache().get("apps", "created").isPresent() && this.informer.getCache()
			.get("apps", "changing")
			.map((object) -> "v2".equals(object.getData().get("value")))
			.orElse(false));
		release.countDown();
		await().until(() -> recorder.received().contains("add created v1"));
		List<String> received = recorder.received();
		assertThat(received).as("what the listener received").hasSize(7);
		assertThat(received.subList(0, 2)).as("before the replay").containsExactly("add changing v1", "add slow v1");
		assertThat(received.subList(2, 4)).as("the replay: what listeners had been handed when it was asked for")
			.containsExactlyInAnyOrder("replayed add changing v1", "replayed add slow v1");
		assertThat(received.subList(4, 7)).as("after the replay: each change as it happened")
			.containsExactly("replayed", "update changing v1 -> v2", "add created v1");
	}

	private ConfigMap create(String name, String value) {
		return this.mock.client().configMaps().resource(TestResources.configMap("apps", name, value)).create();
	}

	/**
	 * Records what it receives, as {@code "<type> <name> <value>"}; blocks on the add of
	 * {@code slow} until released.
	 */
	static final class Recorder implements ApplicationListener<ApplicationEvent> {

		private final List<String> received = new CopyOnWriteArrayList<>();

		private final Map<String, Boolean> blocking = new ConcurrentHashMap<>();

		private final CountDownLatch release;

		Recorder(CountDownLatch release) {
			this.release = release;
		}

		@Override
		public void onApplicationEvent(ApplicationEvent event) {
			if (event instanceof ResourcesReplayedEvent) {
				this.received.add("replayed");
				return;
			}
			if (!(event instanceof ResourceEvent<?> change)) {
				return;
			}
			ConfigMap object = (ConfigMap) change.getResource();
			String value = object.getData().get("value");
			if (change instanceof ResourceUpdatedEvent<?> updated) {
				this.received.add("update " + object.getMetadata().getName() + " "
						+ ((ConfigMap) updated.getOldResource()).getData().get("value") + " -> " + value);
				return;
			}
			boolean replay = change instanceof ResourceAddedEvent<?> added && added.isReplay();
			this.received.add((replay ? "replayed add " : (change instanceof ResourceAddedEvent) ? "add " : "delete ")
					+ object.getMetadata().getName() + " " + value);
			if (!replay && "slow".equals(object.getMetadata().getName())) {
				this.blocking.put("slow", true);
				try {
					this.release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

		boolean blocked() {
			return this.blocking.containsKey("slow");
		}

		List<String> received() {
			return List.copyOf(this.received);
		}

	}

}
