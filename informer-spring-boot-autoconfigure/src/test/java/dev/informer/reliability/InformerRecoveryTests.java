package dev.informer.reliability;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.informer.InformerCustomizer;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.WatchMonitor;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.test.InformerContexts;
import dev.informer.test.RecordingListener;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchHealth;
import dev.informer.watch.WatchHealthPolicy;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.definition;
import static dev.informer.reliability.FaultServer.event;
import static dev.informer.reliability.FaultServer.list;
import static dev.informer.reliability.FaultServer.listPath;
import static dev.informer.reliability.FaultServer.relistPath;
import static dev.informer.reliability.FaultServer.watchPath;
import static dev.informer.reliability.FaultServer.withInformer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Informers that stop working are replaced by fresh ones seeded from what listeners have
 * seen, with a growing, jittered backoff between replacements (fault matrix rows 12 and
 * 13).
 */
@ExtendWith(OutputCaptureExtension.class)
class InformerRecoveryTests {

	private static final String NS = "faults";

	private static final Pattern REPLACING = Pattern.compile("replacing it with a fresh informer in (\\d+) ms");

	private static final Status UNAVAILABLE = new StatusBuilder().withCode(503)
		.withReason("ServiceUnavailable")
		.build();

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	@Test
	void aWatchTheServerKeepsClosingIsReplacedWithGrowingBackoffAndHealthGoesDown(CapturedOutput output) {
		this.faults.listsAlways(listPath(NS), list("1", cm(NS, "a", "1")));
		this.faults.listsAlways(relistPath(NS), list("1", cm(NS, "a", "1")));
		// a server that ends every watch at once: fabric8 re-watches immediately, forever
		this.faults.closingWatch(watchPath(NS, "1"), 100, event("ADDED", cm(NS, "a", "1"))).always();
		runner("informer.reliability.watch-availability-window=6s").run((context) -> {
			List<WatchHealth> seen = healthUntilFlappingRelists(InformerContexts.informer(context),
					InformerContexts.watch(context), 2);
			assertThat(seen).anySatisfy((watchHealth) -> {
				assertThat(watchHealth.level()).isEqualTo(WatchHealth.Level.DOWN);
				assertThat(watchHealth.reason()).isEqualTo("WatchFlapping");
			});
			List<Long> delays = delays(output);
			assertThat(delays).hasSizeGreaterThanOrEqualTo(2);
			// Spring's backoff with our settings: 1-1.5 s, then 1-3 s (its jitter scales
			// with each doubling, so one wait need not exceed the one before)
			assertThat(delays.get(0)).isBetween(1000L, 1500L);
			assertThat(delays.get(1)).isBetween(1000L, 3000L);
			// the object never changed: replacements deliver nothing new
			assertThat(InformerContexts.listener(context).resourceEvents()).singleElement()
				.isInstanceOf(ResourceAddedEvent.class);
		});
	}

	@Test
	void aServerThatKeepsExpiringTheWatchIsReplacedInsteadOfRelistedEverySecond(CapturedOutput output) {
		this.faults.listsAlways(listPath(NS), list("10", cm(NS, "a", "1")));
		this.faults.listsAlways(relistPath(NS), list("10", cm(NS, "a", "1")));
		// a watch closed without a message is taken
		// for 410 by fabric8: relist, watch, repeat
		this.faults.closingWatch(watchPath(NS, "10"), 0).always();
		runner("informer.reliability.watch-availability-window=10s").run((context) -> {
			Watch status = InformerContexts.watch(context);
			List<WatchHealth> seen = healthUntilFlappingRelists(InformerContexts.informer(context), status, 1);
			assertThat(status.snapshot().lists().relists().get(RelistReason.GONE.tagValue())).isGreaterThanOrEqualTo(3);
			assertThat(seen).anySatisfy((watchHealth) -> assertThat(watchHealth.reason()).isEqualTo("WatchFlapping"));
			assertThat(delays(output)).isNotEmpty();
			assertThat(InformerContexts.listener(context).resourceEvents()).singleElement()
				.isInstanceOf(ResourceAddedEvent.class);
		});
	}

	@Test
	void aReplacementThatIsStillListingIsNotReplacedAgain() {
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1")));
		// the server goes away for longer than replace-stalled-after: the watch cannot
		// open and the replacement's list keeps failing, as it does while a large list is
		// cut off or the API server is still down; fabric8 retries that list by itself
		this.faults.failsAlways(watchPath(NS, "10"), UNAVAILABLE);
		this.faults.failsAlways(relistPath(NS), UNAVAILABLE);
		runner("informer.reliability.replace-stalled-after=1s", "informer.reliability.backoff-initial-interval=200ms")
			.run(withInformer((context, listener, informer, status) -> {
				await().atMost(Duration.ofSeconds(20))
					.until(() -> status.snapshot()
						.lists()
						.relists()
						.getOrDefault(RelistReason.STALLED.tagValue(), 0L) >= 1);
				// replacing a replacement that is listing only starts the same list
				// again: it must be left to list for as long as the server needs
				await().during(Duration.ofSeconds(5))
					.atMost(Duration.ofSeconds(10))
					.until(() -> status.snapshot()
						.lists()
						.relists()
						.getOrDefault(RelistReason.STALLED.tagValue(), 0L) == 1);
			}));
	}

	@Test
	void watchErrorEventsAreRetriedByFabric8AtABoundedRate() {
		this.faults.listsAlways(listPath(NS), list("10", cm(NS, "a", "1")));
		// fabric8 8.0.0 handles a non-410 ERROR event inside its watch
		// manager: it reconnects after the Status's retryAfterSeconds or
		// about a second, and tells the informer nothing (isWatching()
		// stays true, the exception handler is not called)
		this.faults.server()
			.expect()
			.get()
			.withPath(watchPath(NS, "10"))
			.andUpgradeToWebSocket()
			.open()
			.immediately()
			.andEmit(new WatchEvent(
					new StatusBuilder().withCode(500).withReason("InternalError").withMessage("boom").build(), "ERROR"))
			.done()
			.always();
		runner().run((context) -> {
			int before = this.faults.server().getRequestCount();
			long started = System.nanoTime();
			await().atMost(Duration.ofSeconds(20)).until(() -> this.faults.server().getRequestCount() - before >= 5);
			long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
			// five reconnects cannot happen in less than about four seconds: no hot loop
			assertThat(elapsedMillis).isGreaterThan(3000);
			assertThat(InformerContexts.listener(context).resourceEvents()).hasSize(1);
			assertThat(context.getBean(DefaultInformerRegistry.class).cache("configmaps", ConfigMap.class).size())
				.isOne();
		});
	}

	@Test
	void anInformerFabric8StopsIsReplacedAndDeliversOnlyWhatChanged() throws Exception {
		replaceAnInformerFabric8Stops(List.of());
	}

	@Test
	void aReplacementWhoseCustomizerFailsIsTriedAgainUntilItWorks() throws Exception {
		// the customizer fails for the first two replacements, as one reaching for
		// something not there yet would
		AtomicInteger customized = new AtomicInteger();
		InformerCustomizer failingTwice = (spec) -> {
			int call = customized.incrementAndGet();
			if (call == 2 || call == 3) {
				throw new IllegalStateException("not yet");
			}
		};
		replaceAnInformerFabric8Stops(List.of(failingTwice));
		assertThat(customized).hasValue(4);
	}

	/**
	 * An informer fabric8 stops (an event that does not deserialize, a policy that gives
	 * up) is replaced, and the replacement delivers only what changed meanwhile.
	 */
	private void replaceAnInformerFabric8Stops(List<InformerCustomizer> customizers) throws Exception {
		this.faults.lists(listPath(NS), list("10", cm(NS, "a", "1"), cm(NS, "b", "2")));
		this.faults.listsAlways(relistPath(NS), list("30", cm(NS, "a", "1"), cm(NS, "b", "7")));
		this.faults.listsAlways(listPath(NS), list("30", cm(NS, "a", "1"), cm(NS, "b", "7")));
		// an event that does not deserialize into a ConfigMap and,
		// without a resourceVersion, cannot be skipped (one that
		// can is: UndecodableObjectTests): fabric8 hands it to the
		// exception handler, and this policy tells it to give up,
		// so fabric8 stops the informer
		this.faults
			.closingWatch(watchPath(NS, "10"), 100,
					"{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
							+ "\"metadata\":{\"name\":\"b\",\"namespace\":\"faults\"},\"data\":\"not a map\"}}")
			.once();
		this.faults.closingWatch(watchPath(NS, "30"), 0).always();
		RecordingListener listener = new RecordingListener();
		InformerEventPublisher publisher = new InformerEventPublisher();
		publisher.addListener((ResourceEvent<?> event) -> listener.record(event));
		ResourceInformer<ConfigMap> informer = new ResourceInformer<>(definition(NS), publisher,
				(started, ex) -> !started, RecoveryOptions.DEFAULT, Clock.systemUTC());
		DefaultInformerRegistry registry = new DefaultInformerRegistry(List.of(informer));
		WatchMonitor monitor = new WatchMonitor(registry, WatchMonitor.DEFAULT_PERIOD);
		try {
			informer.start(this.faults.defaultClient(), customizers).get();
			monitor.start();
			Watch status = informer.getWatches().get(0);
			await().atMost(Duration.ofSeconds(20))
				.until(() -> status.snapshot().lists().relists().getOrDefault(RelistReason.STOPPED.tagValue(), 0L) == 1
						&& listener.events(ResourceUpdatedEvent.class).size() == 1);
			assertThat(status.getLastError()).isNotNull();
			assertThat(listener.resourceEvents())
				.extracting((event) -> event.getClass().getSimpleName() + " " + event.getName() + " "
						+ event.getResourceVersion())
				.containsExactly("ResourceAddedEvent a 1", "ResourceAddedEvent b 2", "ResourceUpdatedEvent b 7");
			assertThat(informer.getCache().get("faults", "b"))
				.hasValueSatisfying((cached) -> assertThat(cached.getMetadata().getResourceVersion()).isEqualTo("7"));
		}
		finally {
			monitor.stop();
			informer.stop();
		}
	}

	/**
	 * Sample health, as a probe would, until the watch was relisted for flapping
	 * {@code relists} times.
	 */
	private static List<WatchHealth> healthUntilFlappingRelists(ResourceInformer<?> informer, Watch status,
			long relists) {
		WatchHealthPolicy health = new WatchHealthPolicy(Duration.ofSeconds(90), Duration.ofSeconds(60));
		List<WatchHealth> seen = new ArrayList<>();
		await().atMost(Duration.ofSeconds(40)).until(() -> {
			seen.add(health.evaluate(informer, status.snapshot(), Instant.now()));
			return status.snapshot().lists().relists().getOrDefault(RelistReason.FLAPPING.tagValue(), 0L) >= relists;
		});
		return seen;
	}

	private ApplicationContextRunner runner(String... properties) {
		return InformerContexts.configMaps(this.faults::defaultClient, NS).withPropertyValues(properties);
	}

	private static List<Long> delays(CapturedOutput output) {
		List<Long> delays = new ArrayList<>();
		Matcher matcher = REPLACING.matcher(output.getOut());
		while (matcher.find()) {
			delays.add(Long.parseLong(matcher.group(1)));
		}
		return delays;
	}

}
