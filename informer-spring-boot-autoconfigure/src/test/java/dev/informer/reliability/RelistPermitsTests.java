package dev.informer.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.watch.RelistReason;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.event;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.relistPath;
import static dev.informer.reliability.FaultServer.watchPath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Relists and replacements list under {@code informer.startup.max-concurrent-lists} as
 * the initial lists do: one manual relist of an informer over many namespaces, and the
 * replacements of many watches that stopped working at once, send their lists one at a
 * time with a cap of 1.
 * <p>
 * The mock server holds the body of every relist's list for a while: a list is in flight
 * from its request until its body is sent, so with a cap of 1 the next list's request
 * cannot arrive before the previous one's body was sent. The test counts, for each
 * arrival, the lists whose bodies were still held then.
 */
class RelistPermitsTests {

	private static final List<String> NAMESPACES = List.of("permits-a", "permits-b", "permits-c", "permits-d");

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	/** When each relist's list request arrived, in nanoseconds. */
	private final List<Long> arrivals = new CopyOnWriteArrayList<>();

	private final ApplicationContextRunner runner = this.faults.declaring(String.join(",", NAMESPACES))
		.withPropertyValues("informer.startup.max-concurrent-lists=1");

	@Test
	void aManualRelistOfManyNamespacesListsThemOneAtATime() {
		Duration held = Duration.ofMillis(300);
		for (String namespace : NAMESPACES) {
			this.faults.lists(listPath(namespace), list("10", cm(namespace, "a", "1")));
			this.faults.watchStaysOpen(watchPath(namespace, "10"));
			relistsHeldFor(namespace, held, "20");
			this.faults.watchStaysOpen(watchPath(namespace, "20"));
		}
		this.runner.run((context) -> {
			ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
			informer.relist().get(30, TimeUnit.SECONDS);
			assertThat(this.arrivals).hasSize(NAMESPACES.size());
			assertThat(maxInFlight(held)).as("lists in flight at once").isOne();
		});
	}

	@Test
	void replacementsOfManyWatchesThatStoppedWorkingListOneAtATime() {
		// longer than the jitter of the replacements' first backoff (1 to 1.5 s): all
		// replacements fall due while the first list is held
		Duration held = Duration.ofMillis(1500);
		for (String namespace : NAMESPACES) {
			this.faults.lists(listPath(namespace), list("1", cm(namespace, "a", "1")));
			// a server that ends every watch at once: fabric8 re-watches immediately,
			// forever, and the watch is replaced
			this.faults.closingWatch(watchPath(namespace, "1"), 100, event("ADDED", cm(namespace, "a", "1"))).always();
			relistsHeldFor(namespace, held, "20");
			this.faults.watchStaysOpen(watchPath(namespace, "20"));
		}
		this.runner.withPropertyValues("informer.reliability.watch-availability-window=6s").run((context) -> {
			ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
			await().atMost(Duration.ofSeconds(60))
				.until(() -> informer.getWatches()
					.stream()
					.map((watch) -> watch.snapshot().lists().last())
					.allMatch((list) -> list != null && list.trigger() == RelistReason.FLAPPING));
			assertThat(this.arrivals).hasSizeGreaterThanOrEqualTo(NAMESPACES.size());
			assertThat(maxInFlight(held)).as("lists in flight at once").isOne();
		});
	}

	/**
	 * Answer every relist of a namespace, holding the list's body for {@code held}.
	 */
	private void relistsHeldFor(String namespace, Duration held, String resourceVersion) {
		this.faults.server()
			.expect()
			.get()
			.delay(held.toMillis(), TimeUnit.MILLISECONDS)
			.withPath(relistPath(namespace))
			.andReply(200, (request) -> {
				this.arrivals.add(System.nanoTime());
				return list(resourceVersion, cm(namespace, "a", "1"));
			})
			.always();
	}

	/**
	 * Return the most lists in flight at once: for each arrival, the lists that arrived
	 * before it whose bodies were still held.
	 */
	private int maxInFlight(Duration held) {
		List<Long> sorted = new ArrayList<>(this.arrivals);
		sorted.sort(null);
		int max = 0;
		for (int i = 0; i < sorted.size(); i++) {
			int inFlight = 1;
			for (int j = 0; j < i; j++) {
				if (sorted.get(i) - sorted.get(j) < held.toNanos()) {
					inFlight++;
				}
			}
			max = Math.max(max, inFlight);
		}
		return max;
	}

}
