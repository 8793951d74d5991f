package dev.informer.reliability;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

import dev.informer.InformerCustomizer;
import dev.informer.InformerSpec;
import dev.informer.autoconfigure.endpoint.InformerEndpointAutoConfiguration;
import dev.informer.endpoint.InformersEndpoint;
import dev.informer.endpoint.InformersEndpoint.ActionDescriptor;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.test.InformerContexts;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.event;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.relistPath;
import static dev.informer.reliability.FaultServer.watchPath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A relist requested through the {@code informers} endpoint while a listener is still
 * busy with an event: the request returns at once, the relist runs on another thread, and
 * a second request meanwhile starts no second list.
 */
class RelistRequestTests {

	private static final String NS = "relist-request";

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	private final ApplicationContextRunner runner = this.faults.declaring(NS)
		.withConfiguration(AutoConfigurations.of(InformerEndpointAutoConfiguration.class))
		.withBean(GatedListener.class)
		.withBean(ThreadRecorder.class)
		.withPropertyValues("management.endpoints.web.exposure.include=informers");

	@Test
	void aRelistRequestedWhileAListenerIsBusyRunsOffTheRequestThreadAndOnlyOnce() {
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1")));
		// the listener blocks on b until the test opens the gate
		this.faults.watchStaysOpen(watchPath(NS, "10"), event("ADDED", cm(NS, "b", "11")));
		this.faults.listsAlways(relistPath(NS), list("20", cm(NS, "a", "1"), cm(NS, "b", "11")));
		this.faults.watchStaysOpen(watchPath(NS, "20"));
		this.faults.watchStaysOpen(watchPath(NS, "20"));
		this.runner.run((context) -> {
			GatedListener listener = context.getBean(GatedListener.class);
			ThreadRecorder customizers = context.getBean(ThreadRecorder.class);
			InformersEndpoint endpoint = context.getBean(InformersEndpoint.class);
			Watch status = InformerContexts.watch(context);
			await().atMost(Duration.ofSeconds(10)).until(() -> listener.busy.getCount() == 0);
			WebEndpointResponse<ActionDescriptor> first = endpoint.act("configmaps", "relist");
			assertThat(first.getStatus()).isEqualTo(202);
			assertThat(first.getBody().outcome()).isEqualTo(InformersEndpoint.STARTED);
			// answered while the listener still holds
			// b: the relist waits for it elsewhere
			assertThat(listener.gate.getCount()).isOne();
			WebEndpointResponse<ActionDescriptor> second = endpoint.act("configmaps", "relist");
			assertThat(second.getStatus()).isEqualTo(409);
			assertThat(second.getBody().outcome()).isEqualTo(InformersEndpoint.ALREADY_RUNNING);
			listener.gate.countDown();
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(status.snapshot().lists().relistCount(RelistReason.MANUAL)).isOne());
			await().atMost(Duration.ofSeconds(10)).until(() -> this.faults.count(watchPath(NS, "20")) == 1);
			assertThat(this.faults.count(relistPath(NS))).isOne();
			// the relist's informer was customized on a thread that is not the request's
			assertThat(customizers.threads).hasSize(2).contains(Thread.currentThread().getName());
			// once done, the next request starts a relist again
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(endpoint.act("configmaps", "relist").getStatus()).isEqualTo(202));
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(
						() -> assertThat(status.snapshot().lists().relistCount(RelistReason.MANUAL)).isEqualTo(2));
			// the status counts a relist when its list starts, as its request is sent
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(this.faults.count(relistPath(NS))).isEqualTo(2));
		});
	}

	static class GatedListener {

		final CountDownLatch busy = new CountDownLatch(1);

		final CountDownLatch gate = new CountDownLatch(1);

		@EventListener
		void on(ResourceAddedEvent<ConfigMap> event) throws InterruptedException {
			if ("b".equals(event.getName())) {
				this.busy.countDown();
				this.gate.await(20, TimeUnit.SECONDS);
			}
		}

	}

	/**
	 * Records the threads customizers run on: the initial informer's on the test thread,
	 * a relist's on whichever thread runs the relist.
	 */
	static class ThreadRecorder implements InformerCustomizer {

		final Set<String> threads = ConcurrentHashMap.newKeySet();

		@Override
		public void customize(InformerSpec<?> informer) {
			this.threads.add(Thread.currentThread().getName());
		}

	}

}
