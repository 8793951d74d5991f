package dev.informer.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline.TimelineEvent;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.metrics.StartupStep;

import dev.informer.runtime.status.WatchContents;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.test.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Progress lines while startup waits for a list that takes longer than the interval, and
 * the startup steps of the lists and the wait; watches driven by hand.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupProgressTests {

	private static final Duration INTERVAL = Duration.ofMillis(200);

	private final MutableClock clock = MutableClock.startingAt("2026-01-01T00:00:00Z");

	private final ResourceInformer<ConfigMap> slow = TestWatches.configMaps(this.clock, "big-a", "big-b");

	private final BufferingApplicationStartup startup = new BufferingApplicationStartup(100);

	private final StartupProgress progress = new StartupProgress(this.startup, INTERVAL);

	@Test
	void anInformerStillListingIsLoggedWithTheObjectsCachedSoFar(CapturedOutput output) throws Exception {
		((WatchStatus) this.slow.getWatches().get(0)).observed().contents(cached(1200));
		TestWatches.sync(this.slow.getWatches().get(1), 30);
		((WatchStatus) this.slow.getWatches().get(1)).observed().contents(cached(30));
		ResourceInformer<ConfigMap> synced = TestWatches.configMaps(this.clock, "small");
		TestWatches.sync(synced.getWatches().get(0), 3);
		CompletableFuture<Void> all = new CompletableFuture<>();
		CompletableFuture<Void> waited = CompletableFuture.runAsync(() -> {
			try {
				this.progress.await(all, Duration.ofMinutes(1), List.of(this.slow, synced));
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		await().untilAsserted(() -> assertThat(output).containsPattern(
				"Informer configmaps still listing after 0 s: 1230 objects cached so far, 1 of 2 watches synced"));
		assertThat(output.getAll().lines().filter((line) -> line.contains("still listing")))
			.allSatisfy((line) -> assertThat(line).contains("1230 objects"));
		all.complete(null);
		waited.get();
		assertThat(tags("informer.sync.wait")).containsEntry("outcome", "synced");
	}

	/**
	 * The startup wait is built from what {@code listing} returns: it must not complete
	 * before the list's step ended, or {@code /actuator/startup} read once the context is
	 * up can lack an {@code informer.list} step (a clean-clone CI run:
	 * {@code InformerStartupFeedbackTests} saw one of two).
	 */
	@Test
	void whatListingReturnsCompletesOnlyOnceTheListsStepEnded() throws Exception {
		CountDownLatch ending = new CountDownLatch(1);
		AtomicBoolean ended = new AtomicBoolean();
		BufferingApplicationStartup slowToEnd = new BufferingApplicationStartup(100) {

			@Override
			public StartupStep start(String name) {
				StartupStep step = super.start(name);
				return new ForwardingStep(step, () -> {
					try {
						ending.await(10, TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
					ended.set(true);
				});
			}

		};
		CompletableFuture<Void> synced = new CompletableFuture<>();
		CompletableFuture<Void> listed = new StartupProgress(slowToEnd, INTERVAL).listing(this.slow, synced);
		CompletableFuture.runAsync(() -> synced.complete(null));
		await().until(synced::isDone);
		assertThat(listed).as("done while its step is still ending").isNotDone();
		ending.countDown();
		listed.get(10, TimeUnit.SECONDS);
		assertThat(ended).isTrue();
	}

	@Test
	void aListFasterThanTheIntervalLogsNothing(CapturedOutput output) throws Exception {
		this.progress.await(CompletableFuture.completedFuture(null), Duration.ofMinutes(1), List.of(this.slow));
		assertThat(output).doesNotContain("still listing");
	}

	@Test
	void aWaitThatTimesOutIsAStepWithThatOutcome() {
		assertThatExceptionOfType(TimeoutException.class).isThrownBy(
				() -> this.progress.await(new CompletableFuture<>(), Duration.ofMillis(50), List.of(this.slow)));
		assertThat(tags("informer.sync.wait")).containsEntry("outcome", "timeout").containsEntry("timeout", "PT0.05S");
	}

	@Test
	void eachListIsAStepThatEndsWithTheSync() {
		CompletableFuture<Void> synced = new CompletableFuture<>();
		this.progress.listing(this.slow, synced);
		assertThat(this.startup.getBufferedTimeline().getEvents()).isEmpty();
		((WatchStatus) this.slow.getWatches().get(0)).observed().contents(cached(7));
		synced.complete(null);
		assertThat(tags("informer.list"))
			.isEqualTo(Map.of("informer", "configmaps", "watches", "2", "outcome", "synced", "objects", "7"));
	}

	@Test
	void aFailedListEndsItsStepAsFailed() {
		CompletableFuture<Void> synced = new CompletableFuture<>();
		this.progress.listing(this.slow, synced);
		synced.completeExceptionally(TestWatches.forbidden());
		assertThat(tags("informer.list")).containsEntry("outcome", "failed");
	}

	private Map<String, String> tags(String name) {
		StartupStep step = this.startup.getBufferedTimeline()
			.getEvents()
			.stream()
			.map(TimelineEvent::getStartupStep)
			.filter((candidate) -> candidate.getName().equals(name))
			.findFirst()
			.orElseThrow();
		return StreamSupport.stream(step.getTags().spliterator(), false)
			.collect(Collectors.toMap(StartupStep.Tag::getKey, StartupStep.Tag::getValue));
	}

	private static WatchContents cached(int objects) {
		return new WatchContents() {

			@Override
			public int cacheSize() {
				return objects;
			}

		};
	}

	/**
	 * A step that runs an action before it ends.
	 */
	private record ForwardingStep(StartupStep step, Runnable beforeEnd) implements StartupStep {

		@Override
		public String getName() {
			return this.step.getName();
		}

		@Override
		public long getId() {
			return this.step.getId();
		}

		@Override
		public Long getParentId() {
			return this.step.getParentId();
		}

		@Override
		public StartupStep tag(String key, String value) {
			this.step.tag(key, value);
			return this;
		}

		@Override
		public StartupStep tag(String key, Supplier<String> value) {
			this.step.tag(key, value);
			return this;
		}

		@Override
		public Tags getTags() {
			return this.step.getTags();
		}

		@Override
		public void end() {
			this.beforeEnd.run();
			this.step.end();
		}

	}

}
