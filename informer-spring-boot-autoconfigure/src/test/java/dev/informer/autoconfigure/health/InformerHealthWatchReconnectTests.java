package dev.informer.autoconfigure.health;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapListBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

import dev.informer.event.InformerStateChangedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.health.InformersHealthContributor;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A watch the server closes every half second, as an API server does every few minutes:
 * fabric8 reopens it from the last resourceVersion, and health stays UP throughout.
 */
class InformerHealthWatchReconnectTests {

	private static MockApiServer mock;

	@BeforeAll
	static void startServer() {
		mock = MockApiServer.crud();
		ConfigMap existing = new ConfigMapBuilder(TestResources.configMap("flaky", "existing", "x")).editMetadata()
			.withResourceVersion("7")
			.endMetadata()
			.build();
		mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces/flaky/configmaps?resourceVersion=0")
			.andReturn(200,
					new ConfigMapListBuilder().withNewMetadata()
						.withResourceVersion("7")
						.endMetadata()
						.withItems(existing)
						.build())
			.always();
		// the mock closes the session once its last event is sent
		mock.server()
			.expect()
			.get()
			.withPath("/api/v1/namespaces/flaky/configmaps?allowWatchBookmarks=true&resourceVersion=7"
					+ "&timeoutSeconds=600&watch=true")
			.andUpgradeToWebSocket()
			.open()
			.waitFor(500)
			.andEmit(new WatchEvent(existing, "ADDED"))
			.done()
			.always();
	}

	@AfterAll
	static void stopServer() {
		mock.close();
	}

	private final ApplicationContextRunner runner = InformerContexts.runner(() -> mock.client())
		.withConfiguration(AutoConfigurations.of(InformerHealthContributorAutoConfiguration.class))
		.withBean(Transitions.class)
		.withPropertyValues("informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=flaky");

	@Test
	void healthStaysUpWhileTheWatchIsClosedAndReopened() {
		this.runner.run((context) -> {
			HealthIndicator configMaps = (HealthIndicator) context.getBean(InformersHealthContributor.class)
				.getContributor("configmaps");
			Watch status = context.getBean(DefaultInformerRegistry.class).informer("configmaps").getWatches().get(0);
			List<Status> statuses = new CopyOnWriteArrayList<>();
			AtomicBoolean sawNotWatching = new AtomicBoolean();
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				Health health = configMaps.health();
				statuses.add(health.getStatus());
				if (Boolean.FALSE.equals(health.getDetails().get("watching"))) {
					sawNotWatching.set(true);
				}
				return status.snapshot().connection().reconnects() >= 2 && sawNotWatching.get() && status.isWatching();
			});
			assertThat(statuses).containsOnly(Status.UP);
			assertThat(status.snapshot().lists().relistCount()).isZero();
			Transitions transitions = context.getBean(Transitions.class);
			assertThat(transitions.changes).contains("WATCHING -> RECONNECTING (watch closed)",
					"RECONNECTING -> WATCHING (watch re-established)");
			// the replayed object carries the version already cached: no event
			assertThat(transitions.resourceEvents).singleElement().asString().contains("ResourceAddedEvent");
		});
	}

	static class Transitions {

		final List<String> changes = new CopyOnWriteArrayList<>();

		final List<ResourceEvent<?>> resourceEvents = new CopyOnWriteArrayList<>();

		@EventListener
		void on(InformerStateChangedEvent event) {
			this.changes.add(event.getPreviousState() + " -> " + event.getState() + " (" + event.getCause() + ")");
		}

		@EventListener
		void on(ResourceEvent<?> event) {
			this.resourceEvents.add(event);
		}

	}

}
