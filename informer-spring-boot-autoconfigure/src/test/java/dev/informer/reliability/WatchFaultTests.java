package dev.informer.reliability;

import java.time.Duration;
import java.util.List;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.test.InformerContexts;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.relistPath;
import static dev.informer.reliability.FaultServer.watchPath;
import static dev.informer.reliability.FaultServer.withInformer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Faults on the watch, injected deterministically through mock server expectations (fault
 * matrix row 4; more rows in the other classes of this package).
 */
class WatchFaultTests {

	private static final String NS = "faults";

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	private final ApplicationContextRunner runner = InformerContexts.configMaps(this.faults::defaultClient, NS);

	@Test
	void watchError410RelistsAndDeliversOnlyRealDifferences() {
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1"), cm(NS, "b", "2"), cm(NS, "c", "3")));
		this.faults.listsAlways(relistPath(NS), list("20", cm(NS, "a", "1"), cm(NS, "b", "5"), cm(NS, "d", "11")));
		this.faults
			.closingWatch(watchPath(NS, "10"), 200, new WatchEvent(
					new StatusBuilder().withCode(410).withReason("Expired").withMessage("too old").build(), "ERROR"))
			.once();
		this.faults.closingWatch(watchPath(NS, "20"), 0).always();
		this.runner.run(withInformer((context, listener, informer, status) -> {
			await().atMost(Duration.ofSeconds(20))
				.until(() -> status.snapshot().lists().relists().getOrDefault("410", 0L) == 1
						&& listener.resourceEvents().size() == 6);
			List<ResourceEvent<?>> afterSync = listener.resourceEvents().subList(3, 6);
			assertThat(afterSync).extracting((event) -> event.getClass().getSimpleName() + " " + event.getName())
				.containsExactlyInAnyOrder("ResourceUpdatedEvent b", "ResourceAddedEvent d", "ResourceDeletedEvent c");
			assertThat(listener.events(ResourceDeletedEvent.class)).singleElement()
				.satisfies((deleted) -> assertThat(deleted.isFinalStateUnknown()).isTrue());
			assertThat(listener.events(ResourceUpdatedEvent.class)).singleElement()
				.satisfies((updated) -> assertThat(updated.getOldResource().getMetadata().getResourceVersion())
					.isEqualTo("2"));
			assertThat(listener.events(InformerSyncedEvent.class)).hasSize(1);
			assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
				.containsExactly("a", "b", "c", "d");
		}));
	}

}
