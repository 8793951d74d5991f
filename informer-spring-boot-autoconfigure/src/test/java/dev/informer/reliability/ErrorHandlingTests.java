package dev.informer.reliability;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.InformerState;
import dev.informer.event.ResourceEvent;
import dev.informer.runtime.ListPermits;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.watch.Watch;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.definition;
import static dev.informer.reliability.FaultServer.describe;
import static dev.informer.reliability.FaultServer.event;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.relistPath;
import static dev.informer.reliability.FaultServer.status;
import static dev.informer.reliability.FaultServer.watchPath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * The starter's own code failing inside fabric8's callbacks (fault matrix row 17).
 * fabric8 leaves an informer silently wedged when its exception handler throws, and logs
 * and drops a notification whose handler throws; neither may stop the informer.
 */
class ErrorHandlingTests {

	private static final String NS = "handling";

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	private final List<ResourceEvent<?>> events = new CopyOnWriteArrayList<>();

	private ResourceInformer<ConfigMap> informer;

	@AfterEach
	void stop() {
		if (this.informer != null) {
			this.informer.stop();
		}
	}

	@Test
	void aRetryPolicyThatThrowsNeitherStopsNorWedgesTheInformer() throws Exception {
		this.faults.fails(listPath(NS), status(500, "InternalError", "etcd timeout"), 2);
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1")));
		this.faults.fails(watchPath(NS, "10"), status(500, "InternalError", "etcd timeout"), 1);
		this.faults.lists(relistPath(NS), list("20", cm(NS, "a", "1"), cm(NS, "b", "2")));
		this.faults.watchStaysOpen(watchPath(NS, "20"), event("ADDED", cm(NS, "c", "21")));
		AtomicInteger policyCalls = new AtomicInteger();
		this.informer = informer((started, ex) -> {
			policyCalls.incrementAndGet();
			throw new IllegalStateException("policy bug");
		});
		// before the sync: two failed lists
		this.informer.start(this.faults.client(), List.of()).get(10, TimeUnit.SECONDS);
		Watch status = this.informer.getWatches().get(0);
		// after the sync: a failed watch, then a relist
		await().atMost(Duration.ofSeconds(10)).until(() -> this.events.size() == 3);
		assertThat(describe(this.events)).containsExactly("added a 1", "added b 2", "added c 21");
		assertThat(policyCalls).hasValue(3);
		assertThat(this.faults.paths()).containsExactly(listPath(NS), listPath(NS), listPath(NS), watchPath(NS, "10"),
				relistPath(NS), watchPath(NS, "20"));
		assertThat(status.snapshot().lists().relists()).isEqualTo(Map.of("error", 1L));
		assertThat(status.getLastError().httpCode()).isEqualTo(500);
		assertThat(status.snapshot().errors().consecutive()).isZero();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.informer.isWatching());
		assertThat(status.getState()).isEqualTo(InformerState.WATCHING);
	}

	@Test
	void aDeliveryObserverThatThrowsLosesNoEventsNorOtherObserversNorBacklogAccounting() throws Exception {
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1")));
		this.faults.watchStaysOpen(watchPath(NS, "10"), event("ADDED", cm(NS, "b", "11")),
				event("MODIFIED", cm(NS, "a", "12")), event("DELETED", cm(NS, "b", "13")));
		this.informer = informer(RetryPolicy.standard(false));
		AtomicInteger observed = new AtomicInteger();
		AtomicInteger observedNext = new AtomicInteger();
		this.informer.addDeliveryObserver((informer, watch, type, duration, failedListeners) -> {
			observed.incrementAndGet();
			throw new IllegalStateException("metrics bug");
		});
		this.informer
			.addDeliveryObserver((informer, watch, type, duration, failedListeners) -> observedNext.incrementAndGet());
		this.informer.start(this.faults.client(), List.of()).get(10, TimeUnit.SECONDS);
		Watch status = this.informer.getWatches().get(0);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.events.size() == 4);
		assertThat(describe(this.events)).containsExactly("added a 1", "added b 11", "updated a 12", "deleted b 13");
		assertThat(observed).hasValue(4);
		// observers are isolated from each other, as listeners are
		assertThat(observedNext).hasValue(4);
		assertThat(status.snapshot().events().byType()).isEqualTo(Map.of("added", 2L, "updated", 1L, "deleted", 1L));
		assertThat(status.snapshot().cache().backlog()).isZero();
		assertThat(this.informer.getCache().list()).extracting((cm) -> cm.getMetadata().getResourceVersion())
			.containsExactly("12");
	}

	/**
	 * The start of a list is recorded in order with the watch's events, from the listener
	 * queue; a list that fails for good must end FAILED however late that record runs.
	 * Failed in a loaded CI run before (BadInputTests: the list's start, delivered after
	 * the failure, left the watch LISTING).
	 */
	@Test
	void aListThatFailsForGoodEndsFailedEvenWhenItsStartIsRecordedLate() throws Exception {
		this.faults.failsAlways(listPath(NS), status(400, "BadRequest", "field selector not supported"));
		// listener threads that run nothing until released: the list's start waits there
		List<Runnable> held = new CopyOnWriteArrayList<>();
		this.informer = informer(RetryPolicy.standard(false));
		CompletableFuture<Void> synced = this.informer.start(this.faults.client(), List.of(), ListPermits.UNLIMITED,
				null, held::add);
		assertThatException().isThrownBy(() -> synced.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(KubernetesClientException.class);
		held.forEach(Runnable::run);
		Watch status = this.informer.getWatches().get(0);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(status.getState()).isEqualTo(InformerState.FAILED));
	}

	private ResourceInformer<ConfigMap> informer(RetryPolicy policy) {
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener(new ApplicationListener<ApplicationEvent>() {

			@Override
			public void onApplicationEvent(ApplicationEvent event) {
				if (event instanceof ResourceEvent<?> resourceEvent) {
					ErrorHandlingTests.this.events.add(resourceEvent);
				}
			}

		});
		return new ResourceInformer<>(definition(NS), publisher, policy, Clock.systemUTC());
	}

}
