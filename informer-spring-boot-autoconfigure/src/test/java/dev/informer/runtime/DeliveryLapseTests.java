package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.DeliveryRole;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.event.ResourceEvent;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.test.InformerContexts;
import dev.informer.test.LeaseDelay;
import dev.informer.test.MockApiServer;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Lease lapse shorter than one retry period, made deterministic with a clock the test
 * moves ({@code informerClock}) and Lease requests the test holds: no renewal gets
 * through and the leader's clock jumps past its renew deadline, so its gate closes and
 * drops the event of a change made meanwhile; the clock comes back and the renewals go
 * through before the coordinator's next tick (the test holds that tick for the length of
 * the lapse), so the role never changes. The replica held the Lease all along and could
 * not deliver a change it owned: it must publish it when it may deliver again (issue 21,
 * point 1).
 */
class DeliveryLapseTests {

	private static final String GROUP = "orders";

	private MockApiServer server;

	private KubernetesClient client;

	private final LeaseDelay leases = new LeaseDelay();

	private KubernetesClient replicaClient;

	@BeforeEach
	void start() {
		this.server = MockApiServer.crud();
		this.client = this.server.client();
		this.replicaClient = new KubernetesClientBuilder().withConfig(this.client.getConfiguration())
			.withHttpClientBuilderConsumer((builder) -> builder.addOrReplaceInterceptor(LeaseDelay.NAME, this.leases))
			.build();
		this.client.configMaps().inNamespace("apps").resource(TestResources.configMap("apps", "cm-0", "v0")).create();
	}

	@AfterEach
	void stop() {
		this.leases.release();
		this.replicaClient.close();
		this.server.close();
	}

	@Test
	void aChangeDroppedDuringALapseShorterThanARetryPeriodIsPublishedWhenTheGateReopens() {
		LapsingClock clock = new LapsingClock("informer-delivery-" + GROUP);
		runner(clock).run((context) -> {
			assertThat(context).hasNotFailed();
			RecordingListener listener = context.getBean(RecordingListener.class);
			DeliveryCoordinator coordinator = context.getBean(DeliveryCoordinator.class);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> coordinator.snapshot().leadership().role() == DeliveryRole.LEADER
						&& listener.resourceEvents().size() == 1);
			ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
			long handovers = coordinator.snapshot().leadership().handovers();
			// the lapse: no renewal gets through and the renew deadline passes (the
			// clock jumps), and no tick sees it
			this.leases.hold();
			clock.lapse(Duration.ofSeconds(5));
			this.client.configMaps()
				.inNamespace("apps")
				.resource(TestResources.configMap("apps", "during-lapse", "v0"))
				.create();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> informer.getCache().list().size() == 2
						&& informer.getWatches().stream().mapToLong((watch) -> backlog(watch)).sum() == 0);
			assertThat(listener.resourceEvents()).as("published while the gate was closed")
				.extracting(ResourceEvent::getName)
				.containsExactly("cm-0");
			clock.heal();
			this.leases.release();
			assertThat(coordinator.snapshot().leadership().handovers()).as("role changes seen by the coordinator")
				.isEqualTo(handovers);
			// a few retry periods: the coordinator ticks, the Lease is renewed
			await().atMost(Duration.ofSeconds(5))
				.untilAsserted(() -> assertThat(listener.resourceEvents()).as("published after the lapse healed")
					.extracting(ResourceEvent::getName)
					.contains("during-lapse"));
		});
	}

	private static long backlog(Watch watch) {
		return watch.snapshot().cache().backlog();
	}

	private ApplicationContextRunner runner(Clock clock) {
		return InformerContexts.runner(() -> this.replicaClient)
			.withBean(RecordingListener.class)
			.withBean(InformerAutoConfiguration.CLOCK_BEAN_NAME, Clock.class, () -> clock)
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=" + GROUP,
					"informer.replicas.identity=replica-1", "informer.replicas.lease-namespace=apps",
					"informer.replicas.lease-duration=6s", "informer.replicas.renew-deadline=4s",
					"informer.replicas.retry-period=1s", "informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=apps");
	}

	/**
	 * The system's clock, moved ahead during a lapse; the coordinator's tick thread waits
	 * while the lapse lasts, as when a lapse falls between two ticks.
	 */
	static final class LapsingClock extends Clock {

		private final String tickThread;

		private final Object healed = new Object();

		private volatile Duration offset = Duration.ZERO;

		private volatile boolean lapsing;

		LapsingClock(String tickThread) {
			this.tickThread = tickThread;
		}

		void lapse(Duration ahead) {
			synchronized (this.healed) {
				this.lapsing = true;
				this.offset = ahead;
			}
		}

		void heal() {
			synchronized (this.healed) {
				this.offset = Duration.ZERO;
				this.lapsing = false;
				this.healed.notifyAll();
			}
		}

		@Override
		public Instant instant() {
			if (this.lapsing && Thread.currentThread().getName().equals(this.tickThread)) {
				synchronized (this.healed) {
					while (this.lapsing) {
						try {
							this.healed.wait();
						}
						catch (InterruptedException ex) {
							Thread.currentThread().interrupt();
							break;
						}
					}
				}
			}
			return Instant.now().plus(this.offset);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			throw new UnsupportedOperationException();
		}

	}

}
