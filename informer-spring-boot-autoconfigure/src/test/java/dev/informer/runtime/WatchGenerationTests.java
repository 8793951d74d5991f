package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import dev.informer.InformerDefinition;
import dev.informer.runtime.kinds.InformerOperations;
import dev.informer.runtime.kinds.WatchConnection;
import dev.informer.runtime.listeners.BacklogOptions;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.listeners.ListenerQueue;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.runtime.recovery.RecoveryThread;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.runtime.replicas.DeliveryGate;
import dev.informer.runtime.replicas.DeliveryRecords;
import dev.informer.runtime.replicas.GatedListeners;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.test.MockApiServer;
import dev.informer.watch.DeliveryObserver;
import dev.informer.watch.ListObserver;
import dev.informer.watch.RelistReason;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One fabric8 informer of a watch, as the watch's relists, stops and list permits drive
 * it from several threads.
 */
class WatchGenerationTests {

	@Test
	void aGenerationRetiredBeforeItsPermitArrivedStartsNothingAndGivesThePermitBack() {
		try (MockApiServer mock = MockApiServer.crud()) {
			WatchGeneration<ConfigMap> generation = generation(mock.client(), "permits");
			// another thread stopped or relisted the watch between the permit's check and
			// the start
			generation.retire();
			AtomicInteger released = new AtomicInteger();
			generation.start(released::incrementAndGet);
			assertThat(released).hasValue(1);
		}
	}

	private static WatchGeneration<ConfigMap> generation(KubernetesClient client, String namespace) {
		Clock clock = Clock.systemUTC();
		InformerDefinition<ConfigMap> definition = TestWatches.configMaps(clock, namespace).getDefinition();
		WatchStatus status = new WatchStatus(namespace, Duration.ZERO, clock, (watch, previous, current, cause) -> {
		});
		WatchContext<ConfigMap> context = new WatchContext<>(definition, namespace, status, clock);
		WatchSettings settings = new WatchSettings(new InformerEventPublisher(), RetryPolicy.standard(false),
				RecoveryOptions.DEFAULT, BacklogOptions.UNBOUNDED, RecoveryThread.create("test"), ListObserver.NONE,
				() -> DeliveryObserver.NONE, () -> DeliveryGate.ALL, () -> null, DeliveryRecords::defaults);
		ListenerQueue queue = new ListenerQueue(Runnable::run);
		Pipeline<ConfigMap> pipeline = new Pipeline<>(new ChangeLog<>(definition.getDeclaration()), queue,
				new GatedListeners<>(queue, settings.gate(), (action) -> action.accept(null),
						new CountingPublisher<>(context, settings), DeliveryRecords.defaults()));
		SkippedObjects<ConfigMap> skipped = new SkippedObjects<>(context);
		WatchConnection connection = new WatchConnection(status.observed()::arrived);
		return new WatchGeneration<>(context, pipeline, settings,
				InformerOperations.informer(client, definition, namespace, false, null, connection, skipped),
				connection, RelistReason.INITIAL, false, List.of(), new WatchGeneration.Owner<>() {

					@Override
					public void synced(@Nullable Throwable failure) {
					}

					@Override
					public void cacheChanged() {
					}

					@Override
					public void stopped(WatchGeneration<ConfigMap> generation, String why) {
					}

					@Override
					public void watchListRefused(WatchGeneration<ConfigMap> generation, Throwable refusal) {
					}

				}, skipped);
	}

}
