package dev.informer.runtime;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.informer.DeliveryRole;
import dev.informer.InformerStartupException;
import dev.informer.event.DeliveryRoleChangedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourcesReplayedEvent;
import dev.informer.runtime.replicas.DeliveryCoordinator;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.DeliveryHealthPolicy;
import dev.informer.watch.WatchHealth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code informer.replicas.mode=leader} on fabric8's CRUD mock server, where the test
 * plays the other replica by writing the Lease itself.
 */
@ExtendWith(OutputCaptureExtension.class)
class DeliveryModeTests {

	/**
	 * What a real API server (1.37) answers to a Lease with leaseDurationSeconds 0.
	 */
	private static final String INVALID_MESSAGE = "Lease.coordination.k8s.io \"orders\" is invalid: "
			+ "spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0";

	private MockApiServer server;

	private KubernetesClient client;

	@BeforeEach
	void start() {
		this.server = MockApiServer.crud();
		this.client = this.server.client();
		for (int i = 0; i < 3; i++) {
			this.client.configMaps()
				.inNamespace("apps")
				.resource(TestResources.configMap("apps", "cm-" + i, "v0"))
				.create();
		}
	}

	@AfterEach
	void stop() {
		this.server.close();
	}

	@Test
	void aLeaderWhenItStartsPublishesItsInitialListLiveAndHoldsTheLease() {
		runner().run((context) -> {
			assertThat(context).hasNotFailed();
			RecordingListener listener = context.getBean(RecordingListener.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> adds(listener).size() == 3);
			assertThat(adds(listener)).noneMatch(ResourceAddedEvent::isReplay);
			assertThat(listener.events(ResourcesReplayedEvent.class)).isEmpty();
			assertThat(context.getBean(DeliveryCoordinator.class).snapshot().leadership().role())
				.isEqualTo(DeliveryRole.LEADER);
			Lease lease = this.client.leases().inNamespace("apps").withName("orders").get();
			assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("replica-1");
		});
	}

	@Test
	void aStandbyPublishesNothingAndReplaysItsCacheWhenTheLeaseIsReleased() {
		this.client.leases().inNamespace("apps").resource(lease("other", 3600)).create();
		runner().run((context) -> {
			assertThat(context).hasNotFailed();
			RecordingListener listener = context.getBean(RecordingListener.class);
			DeliveryCoordinator coordinator = context.getBean(DeliveryCoordinator.class);
			assertThat(coordinator.snapshot().leadership().role()).isEqualTo(DeliveryRole.STANDBY);
			assertThat(coordinator.snapshot().leadership().leaseHolder()).isEqualTo("other");
			this.client.configMaps()
				.inNamespace("apps")
				.resource(TestResources.configMap("apps", "cm-3", "v0"))
				.create();
			// the standby caches the new object, and publishes nothing
			await().atMost(Duration.ofSeconds(10))
				.until(() -> context.getBean(DefaultInformerRegistry.class)
					.informer("configmaps")
					.getCache()
					.list()
					.size() == 4);
			assertThat(listener.resourceEvents()).isEmpty();
			// the other replica releases the Lease, as fabric8 does when it stops
			this.client.leases().inNamespace("apps").withName("orders").edit((l) -> lease("", 1));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> !listener.events(ResourcesReplayedEvent.class).isEmpty());
			List<ResourceAddedEvent<?>> replayed = adds(listener);
			assertThat(replayed).hasSize(4).allMatch(ResourceAddedEvent::isReplay);
			assertThat(listener.events(ResourcesReplayedEvent.class)).singleElement()
				.satisfies((event) -> assertThat(event.getCount()).isEqualTo(4))
				.satisfies((event) -> assertThat(event.getReason()).isEqualTo("leader"));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> listener.events(DeliveryRoleChangedEvent.class)
					.stream()
					.anyMatch((event) -> event.getRole() == DeliveryRole.LEADER));
			// then live events
			this.client.configMaps().inNamespace("apps").withName("cm-0").delete();
			await().atMost(Duration.ofSeconds(10)).until(() -> listener.resourceEvents().size() == 5);
		});
	}

	@Test
	void aLeaseNamespaceThatDoesNotExistFailsStartupNamingTheProperty() {
		// the CRUD mock creates in any namespace: answer the create with a 404
		this.server.server()
			.expect()
			.post()
			.withPath("/apis/coordination.k8s.io/v1/namespaces/apps/leases")
			.andReturn(404,
					"{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
							+ "\"message\":\"namespaces \\\"apps\\\" not found\",\"reason\":\"NotFound\",\"code\":404}")
			.always();
		runner().run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("apps");
			assertThat(context.getStartupFailure()).hasStackTraceContaining("the namespace does not exist");
		});
	}

	@Test
	void aLeaseTheApiServerRejectsAsInvalidFailsStartupWithTheServersMessage() {
		// what an admission policy, or a value no property check foresaw, gets: no
		// retry can cure it, so startup fails at once rather than after the lease
		// duration with a replica that never publishes
		this.server.server()
			.expect()
			.post()
			.withPath("/apis/coordination.k8s.io/v1/namespaces/apps/leases")
			.andReturn(422, invalid())
			.always();
		runner().run((context) -> {
			assertThat(context).hasFailed();
			InformerStartupException failure = cause(context.getStartupFailure(), InformerStartupException.class);
			assertThat(failure).hasMessageContaining("Delivery group 'orders'")
				.hasMessageContaining("refuses to create Lease apps/orders (HTTP 422 Invalid)")
				.hasMessageContaining(INVALID_MESSAGE);
			assertThat(failure.getAction()).contains("Retrying cannot fix this", "informer.replicas.lease-duration",
					"informer.replicas.group", "informer.replicas.identity", "admission");
		});
	}

	@Test
	void aLeaseRefusedAfterStartupIsLoggedWithItsCauseAndMakesDeliveryHealthDown(CapturedOutput output) {
		this.client.leases().inNamespace("apps").resource(lease("other", 3600)).create();
		runner().run((context) -> {
			assertThat(context).hasNotFailed();
			DeliveryCoordinator coordinator = context.getBean(DeliveryCoordinator.class);
			DeliveryHealthPolicy health = new DeliveryHealthPolicy(Duration.ofSeconds(4), Duration.ofMinutes(1));
			Instant started = coordinator.snapshot().takenAt();
			assertThat(health.evaluate(coordinator.snapshot(), started)).isEqualTo(WatchHealth.UP);
			this.server.server()
				.expect()
				.post()
				.withPath("/apis/coordination.k8s.io/v1/namespaces/apps/leases")
				.andReturn(422, invalid())
				.always();
			// the other replica's Lease is deleted: this one tries to create it, and is
			// refused at every attempt
			this.client.leases().inNamespace("apps").withName("orders").delete();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> health.evaluate(coordinator.snapshot(), started).level() == WatchHealth.Level.DOWN);
			assertThat(health.evaluate(coordinator.snapshot(), started).reason()).isEqualTo("Invalid");
			assertThat(coordinator.snapshot().leadership().role()).isEqualTo(DeliveryRole.STANDBY);
			assertThat(output.getOut()).contains("Delivery group 'orders': the API server refuses to create Lease "
					+ "apps/orders (HTTP 422 Invalid: " + INVALID_MESSAGE + ")");
		});
	}

	@Test
	void aShardedMembersLeaseRefusedAfterStartupMakesDeliveryHealthDown() {
		runner().withPropertyValues("informer.replicas.mode=sharded").run((context) -> {
			assertThat(context).hasNotFailed();
			DeliveryCoordinator coordinator = context.getBean(DeliveryCoordinator.class);
			DeliveryHealthPolicy health = new DeliveryHealthPolicy(Duration.ofSeconds(4), Duration.ofMinutes(1));
			Instant started = coordinator.snapshot().takenAt();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> coordinator.snapshot().sharding().role() == DeliveryRole.MEMBER);
			assertThat(health.evaluate(coordinator.snapshot(), started)).isEqualTo(WatchHealth.UP);
			this.server.server()
				.expect()
				.post()
				.withPath("/apis/coordination.k8s.io/v1/namespaces/apps/leases")
				.andReturn(422, invalid())
				.always();
			// its member Lease is deleted: this replica creates it again, and is refused
			this.client.leases().inNamespace("apps").withName("orders-replica-1").delete();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> health.evaluate(coordinator.snapshot(), started).level() == WatchHealth.Level.DOWN);
			assertThat(health.evaluate(coordinator.snapshot(), started).reason()).isEqualTo("Invalid");
			assertThat(coordinator.snapshot().sharding().refusal().message()).isEqualTo(INVALID_MESSAGE);
		});
	}

	private static String invalid() {
		return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\""
				+ INVALID_MESSAGE.replace("\"", "\\\"") + "\",\"reason\":\"Invalid\",\"code\":422}";
	}

	private static <T extends Throwable> T cause(Throwable failure, Class<T> type) {
		for (Throwable current = failure; current != null; current = current.getCause()) {
			if (type.isInstance(current)) {
				return type.cast(current);
			}
		}
		throw new AssertionError("No " + type.getSimpleName() + " in " + failure, failure);
	}

	private static List<ResourceAddedEvent<?>> adds(RecordingListener listener) {
		return listener.resourceEvents()
			.stream()
			.filter(ResourceAddedEvent.class::isInstance)
			.<ResourceAddedEvent<?>>map((event) -> (ResourceAddedEvent<?>) event)
			.toList();
	}

	private ApplicationContextRunner runner() {
		return InformerContexts.runner(() -> this.client)
			.withBean(RecordingListener.class)
			.withPropertyValues("informer.replicas.mode=leader", "informer.replicas.group=orders",
					"informer.replicas.identity=replica-1", "informer.replicas.lease-namespace=apps",
					"informer.replicas.lease-duration=4s", "informer.replicas.renew-deadline=3s",
					"informer.replicas.retry-period=200ms", "informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=apps");
	}

	private static Lease lease(String holder, int seconds) {
		ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
		return new LeaseBuilder().withNewMetadata()
			.withName("orders")
			.withNamespace("apps")
			.endMetadata()
			.withNewSpec()
			.withHolderIdentity(holder)
			.withLeaseDurationSeconds(seconds)
			.withAcquireTime(now)
			.withRenewTime(now)
			.withLeaseTransitions(0)
			.endSpec()
			.build();
	}

}
