package dev.informer.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.test.InformerContexts;
import dev.informer.test.RecordingListener;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.describe;
import static dev.informer.reliability.FaultServer.gone;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.status;
import static dev.informer.reliability.FaultServer.watchPath;
import static dev.informer.reliability.FaultServer.withInformer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A paginated list whose continue token expires between pages (fault matrix row 24): the
 * API server answers 410, and the whole list restarts from the first page after a
 * backoff. What the failed attempt listed must not count as the server's state: no object
 * is reported deleted for being absent from a partial list, and none is added twice.
 */
class PagingTests {

	private static final String NS = "paged";

	private static final String FIRST_PAGE = "/api/v1/namespaces/" + NS + "/configmaps?limit=2";

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	private final List<Long> firstPageRequests = new CopyOnWriteArrayList<>();

	private final ApplicationContextRunner runner = this.faults.configMaps(NS)
		.withPropertyValues("informer.resources.configmaps.list-page-size=2");

	@Test
	void anExpiredContinueTokenRestartsTheInitialListFromTheFirstPage() {
		firstPage("t1", cm(NS, "a", "1"), cm(NS, "b", "2"));
		expired("t1");
		firstPage("t2", cm(NS, "a", "1"), cm(NS, "b", "2"));
		lastPage("t2", "30", cm(NS, "c", "3"));
		this.faults.watchStaysOpen(watchPath(NS, "30"));
		this.runner.run(withInformer((context, listener, informer, status) -> {
			// startup waited for the sync
			await().during(Duration.ofMillis(500)).until(() -> listener.events().size() == 4);
			assertThat(describe(listener.resourceEvents())).containsExactly("added a 1", "added b 2", "added c 3");
			assertThat(listener.events().get(3)).isInstanceOfSatisfying(InformerSyncedEvent.class,
					(synced) -> assertThat(synced.getCacheSize()).isEqualTo(3));
			assertThat(this.faults.paths()).containsExactly(FIRST_PAGE, page("t1"), FIRST_PAGE, page("t2"),
					watchPath(NS, "30"));
			assertRestartedAfterBackoff();
			assertThat(status.getLastError().httpCode()).isEqualTo(410);
			assertThat(status.snapshot().errors().consecutive()).isZero();
			// still the initial list, however many attempts it took
			assertThat(status.snapshot().lists().relistCount()).isZero();
			assertThat(status.snapshot().lists().count()).isEqualTo(1);
		}));
	}

	@Test
	void anExpiredContinueTokenDuringARelistNeitherDeletesNorRepeatsAnything() {
		firstPage("t1", cm(NS, "a", "1"), cm(NS, "b", "2"));
		lastPage("t1", "30", cm(NS, "c", "3"));
		this.faults.watchCloses(watchPath(NS, "30"), gone());
		// b changed meanwhile; c, on the page that expires, is still there
		firstPage("t3", cm(NS, "a", "1"), cm(NS, "b", "5"));
		expired("t3");
		firstPage("t4", cm(NS, "a", "1"), cm(NS, "b", "5"));
		lastPage("t4", "40", cm(NS, "c", "3"));
		this.faults.watchStaysOpen(watchPath(NS, "40"));
		this.runner.run(withInformer((context, listener, informer, status) -> {
			this.faults.awaitRequested(watchPath(NS, "40"));
			await().during(Duration.ofMillis(500)).until(() -> listener.resourceEvents().size() == 4);
			assertThat(describe(listener.resourceEvents())).containsExactly("added a 1", "added b 2", "added c 3",
					"updated b 5");
			assertThat(informer.getCache().list()).hasSize(3);
			assertThat(this.faults.paths()).containsExactly(FIRST_PAGE, page("t1"), watchPath(NS, "30"), FIRST_PAGE,
					page("t3"), FIRST_PAGE, page("t4"), watchPath(NS, "40"));
			assertThat(this.firstPageRequests).hasSize(3);
			assertThat(status.snapshot().lists().relists()).isEqualTo(Map.of("410", 1L));
			assertThat(status.snapshot().lists().last().items()).isEqualTo(3);
		}));
	}

	@Test
	void aResyncWhileTheListIsBetweenPagesReplaysNothingListenersHaveNotSeenAdded() {
		firstPage("t1", cm(NS, "a", "1"), cm(NS, "b", "2"));
		// a and b are cached, their adds held back until the list
		// completes, while resyncs (every second here) replay the cache
		this.faults.server()
			.expect()
			.get()
			.delay(2500, TimeUnit.MILLISECONDS)
			.withPath(page("t1"))
			.andReturn(200, list("30", cm(NS, "c", "3")))
			.once();
		this.faults.watchStaysOpen(watchPath(NS, "30"));
		this.runner.withPropertyValues("informer.resources.configmaps.resync-period=1s").run((context) -> {
			RecordingListener listener = InformerContexts.listener(context);
			await().atMost(Duration.ofSeconds(10)).until(() -> listener.events(ResourceUpdatedEvent.class).size() >= 3);
			List<String> events = describe(listener.resourceEvents());
			assertThat(events.subList(0, 3)).containsExactly("added a 1", "added b 2", "added c 3");
		});
	}

	private void assertRestartedAfterBackoff() {
		assertThat(this.firstPageRequests).hasSize(2);
		assertThat(Duration.ofNanos(this.firstPageRequests.get(1) - this.firstPageRequests.get(0)))
			.isGreaterThanOrEqualTo(Duration.ofMillis(FaultServer.BACKOFF_MILLIS - 50));
	}

	private void firstPage(String next, ConfigMap... items) {
		ConfigMapList page = list("20", items);
		page.getMetadata().setContinue(next);
		this.faults.server().expect().get().withPath(FIRST_PAGE).andReply(200, (request) -> {
			this.firstPageRequests.add(System.nanoTime());
			return page;
		}).once();
	}

	private void lastPage(String token, String resourceVersion, ConfigMap... items) {
		this.faults.server().expect().get().withPath(page(token)).andReturn(200, list(resourceVersion, items)).once();
	}

	private void expired(String token) {
		this.faults.server()
			.expect()
			.get()
			.withPath(page(token))
			.andReturn(410,
					status(410, "Expired",
							"The provided continue parameter is too old to display a consistent "
									+ "list result. You can start a new list without the continue parameter."))
			.once();
	}

	private static String page(String token) {
		return "/api/v1/namespaces/" + NS + "/configmaps?continue=" + token + "&limit=2";
	}

}
