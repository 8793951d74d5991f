package dev.informer.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.informer.runtime.namespaces.NamespaceSelectorWatch;
import dev.informer.runtime.namespaces.NamespaceSelectorWatches;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.test.MockApiServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lock order between a namespace selection and the informers that follow it: the
 * selection tells its members of a joining namespace under its own lock, and a member's
 * {@code namespaceJoined} takes the member's lock, so no member may wait for the
 * selection while it holds its own. A start did: {@code .ci/run} hung in a context start
 * with a namespace-selector informer, main holding the informer's
 * {@link SelectedNamespaces} and waiting for the selection, whose fabric8 thread held the
 * selection in {@code onAdd} and waited for that {@link SelectedNamespaces}.
 */
class NamespaceSelectorLockOrderTests {

	private static final String SELECTOR = "tenant=yes";

	private MockApiServer server;

	private KubernetesClient client;

	@BeforeEach
	void start() {
		this.server = MockApiServer.crud();
		this.client = this.server.client();
		this.client.namespaces()
			.resource(new NamespaceBuilder().withNewMetadata()
				.withName("t1")
				.withLabels(Map.of("tenant", "yes"))
				.endMetadata()
				.build())
			.create();
	}

	@AfterEach
	void stop() {
		this.server.close();
	}

	@Test
	void anInformerThatStartsWhileTheSelectionTellsItsMembersHoldsNoLockOfItsNamespaces() throws Exception {
		NamespaceSelectorWatches selections = new NamespaceSelectorWatches(this.client);
		ResourceInformer<ConfigMap> first = TestWatches.selectedConfigMaps(Clock.systemUTC(), SELECTOR);
		ResourceInformer<ConfigMap> second = TestWatches.selectedConfigMaps(Clock.systemUTC(), SELECTOR);
		try {
			first.start(this.client, List.of(), ListPermits.UNLIMITED, selections, null).get(30, TimeUnit.SECONDS);
			NamespaceSelectorWatch selection = selections.selection(SELECTOR, RetryPolicy.standard(false),
					RecoveryOptions.DEFAULT, Clock.systemUTC(), 1);
			CompletableFuture<Void> started = new CompletableFuture<>();
			Thread starter = new Thread(
					() -> second.start(this.client, List.of(), ListPermits.UNLIMITED, selections, null)
						.whenComplete((ignored, ex) -> started.complete(null)),
					"second-informer-start");
			List<String> held;
			// as the selection's fabric8 thread does while it tells its members of a
			// namespace that joined
			synchronized (selection) {
				starter.start();
				await().atMost(Duration.ofSeconds(30)).until(() -> starter.getState() == Thread.State.BLOCKED);
				ThreadInfo info = ManagementFactory.getThreadMXBean()
					.getThreadInfo(new long[] { starter.getId() }, true, false)[0];
				held = Arrays.stream(info.getLockedMonitors()).map(MonitorInfo::getClassName).toList();
			}
			assertThat(held).as("the monitors the start holds while it waits for the selection")
				.doesNotContain(SelectedNamespaces.class.getName());
			started.get(30, TimeUnit.SECONDS);
		}
		finally {
			second.stop();
			first.stop();
		}
	}

}
