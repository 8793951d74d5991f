package dev.informer.reliability;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import dev.informer.InformerRegistry;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.WatchedInformer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fault 30: the listener executor is a bounded {@code ThreadPoolTaskExecutor} (one
 * thread, no queue) that rejects while its thread is busy, the common production setting.
 * A rejected turn is retried with backoff, never parked until the watch's next event: the
 * namespaces here are quiet, so no next event comes.
 */
class RejectingExecutorTests {

	private static final String NAMESPACE = "quiet";

	private final MockApiServer mock = MockApiServer.crud();

	private final RecordingListener recorder = new RecordingListener();

	private final AtomicInteger rejections = new AtomicInteger();

	/** Holds the executor's only thread until released. */
	private final CountDownLatch busy = new CountDownLatch(1);

	private final CountDownLatch blocking = new CountDownLatch(1);

	private final Runnable blocker = () -> {
		this.blocking.countDown();
		try {
			this.busy.await(60, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	};

	private ThreadPoolTaskExecutor pool;

	@AfterEach
	void stop() {
		this.busy.countDown();
		if (this.pool != null) {
			this.pool.shutdown();
		}
		this.mock.close();
	}

	@Test
	void theOnlyChangeOfAQuietNamespaceRejectedByABusyExecutorIsStillDelivered() {
		this.pool = pool(Integer.MAX_VALUE);
		runner().run((context) -> {
			assertThat(context).hasNotFailed();
			occupy();
			this.mock.client().configMaps().resource(TestResources.configMap(NAMESPACE, "only-change", "v1")).create();
			await().atMost(Duration.ofSeconds(30)).until(() -> this.rejections.get() > 0);
			// the executor is free again; the watch stays quiet
			this.busy.countDown();
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(this.recorder.events(ResourceAddedEvent.class))
					.extracting((added) -> added.getName())
					.containsExactly("only-change"));
			WatchedInformer<?> informer = (WatchedInformer<?>) context.getBean(InformerRegistry.class)
				.informer("configmaps");
			assertThat(informer.getWatches()).singleElement()
				.satisfies((watch) -> assertThat(watch.snapshot().cache().rejected()).isPositive());
		});
	}

	@Test
	void startupWaitingForSyncCompletesWhenTheExecutorRejectsTheListsCompletion() {
		// busy from the start: the two tasks of the empty namespace's watch (its list
		// starting and completing) are rejected, then the executor is free
		this.pool = pool(2);
		occupy();
		runner().withPropertyValues("informer.startup.wait-for-sync=true", "informer.startup.timeout=30s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(this.rejections.get()).isPositive();
				assertThat(context.getBean(InformerRegistry.class).informer("configmaps").isSynced()).isTrue();
			});
	}

	private ApplicationContextRunner runner() {
		KubernetesClient client = this.mock.client();
		return InformerContexts.runner(() -> client)
			.withBean("recorder", RecordingListener.class, () -> this.recorder)
			// the context sees an Executor: a ThreadPoolTaskExecutor bean would be
			// initialized again, with a thread nobody occupies
			.withBean("boundedPool", Executor.class, () -> (task) -> this.pool.execute(task))
			.withPropertyValues("informer.listeners.executor=boundedPool",
					"informer.resources.configmaps.api-version=v1", "informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + NAMESPACE);
	}

	/**
	 * A pool of one thread and no queue, as a bounded production pool is once full; its
	 * thread, once {@link #occupy() occupied}, is freed after some rejections.
	 */
	private ThreadPoolTaskExecutor pool(int freeAfterRejections) {
		ThreadPoolTaskExecutor pool = new ThreadPoolTaskExecutor();
		pool.setThreadNamePrefix("bounded-");
		pool.setCorePoolSize(1);
		pool.setMaxPoolSize(1);
		pool.setQueueCapacity(0);
		pool.setRejectedExecutionHandler((task, executor) -> {
			if (task != this.blocker && this.rejections.incrementAndGet() >= freeAfterRejections) {
				this.busy.countDown();
			}
			throw new RejectedExecutionException("busy");
		});
		pool.initialize();
		return pool;
	}

	/**
	 * Take the pool's only thread until {@link #busy} is released, as soon as the pool
	 * accepts.
	 */
	private void occupy() {
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			try {
				this.pool.execute(this.blocker);
				return true;
			}
			catch (RejectedExecutionException ex) {
				return false;
			}
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> this.blocking.getCount() == 0);
	}

}
