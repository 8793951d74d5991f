package dev.informer.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import dev.informer.InformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.InvariantListener;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fault 30 on a real API server: the listener executor is a one-thread pool with no queue
 * that rejects while busy. Busy through the start of the lists (six rejections: the
 * watches' first tasks and their retries), startup with {@code wait-for-sync} still
 * completes; busy again while one object of each quiet namespace changes, every change
 * still arrives once the pool frees its thread, and a listener that applies events as the
 * contract says ends equal to the server.
 */
class RejectingExecutorIT {

	private static final List<String> NAMESPACES = List.of("it-reject-a", "it-reject-b", "it-reject-c");

	private final AtomicInteger rejections = new AtomicInteger();

	private final AtomicReference<CountDownLatch> busy = new AtomicReference<>(new CountDownLatch(1));

	/** Rejections after which the pool's thread is freed. */
	private final AtomicInteger freeAt = new AtomicInteger();

	private final Runnable blocker = () -> {
		try {
			this.busy.get().await(120, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	};

	@Test
	void startupCompletesAndEveryChangeOfQuietNamespacesArrivesUnderARejectingExecutor() {
		RealApiServer server = RealApiServer.get();
		ThreadPoolTaskExecutor pool = pool();
		try (KubernetesClient admin = server.adminClient(); KubernetesClient informerClient = server.adminClient()) {
			TestResources.createNamespaces(admin, NAMESPACES.toArray(String[]::new));
			NAMESPACES.forEach((namespace) -> admin.configMaps()
				.resource(TestResources.configMap(namespace, "before", "0"))
				.create());
			InvariantListener listener = new InvariantListener();
			// the lists start while the pool is busy
			occupy(pool, NAMESPACES.size() * 2);
			InformerContexts.runner(() -> informerClient)
				.withBean(InvariantListener.class, () -> listener)
				.withBean("boundedPool", Executor.class, () -> (task) -> pool.execute(task))
				.withPropertyValues("informer.listeners.executor=boundedPool",
						"informer.resources.configmaps.api-version=v1", "informer.resources.configmaps.kind=ConfigMap",
						"informer.resources.configmaps.namespaces=" + String.join(",", NAMESPACES),
						"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt",
						"informer.startup.wait-for-sync=true", "informer.startup.timeout=60s")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(context.getBean(InformerRegistry.class).informer("configmaps").isSynced()).isTrue();
					int atStartup = this.rejections.get();
					assertThat(atStartup).isGreaterThanOrEqualTo(NAMESPACES.size() * 2);
					listener.awaitQuiet(() -> serverState(admin), Duration.ofSeconds(30));
					// busy again; one change in each namespace, then nothing
					occupy(pool, atStartup + NAMESPACES.size());
					NAMESPACES.forEach((namespace) -> admin.configMaps()
						.resource(TestResources.configMap(namespace, "only-change", "1"))
						.create());
					listener.awaitReplayOf(() -> serverState(admin), "RejectingExecutorIT", Duration.ofSeconds(60));
					System.out.printf("RejectingExecutorIT: %d rejections, each retried%n", this.rejections.get());
				});
		}
		finally {
			this.busy.get().countDown();
			pool.shutdown();
		}
	}

	private ThreadPoolTaskExecutor pool() {
		ThreadPoolTaskExecutor pool = new ThreadPoolTaskExecutor();
		pool.setThreadNamePrefix("bounded-");
		pool.setCorePoolSize(1);
		pool.setMaxPoolSize(1);
		pool.setQueueCapacity(0);
		pool.setRejectedExecutionHandler((task, executor) -> {
			if (task != this.blocker && this.rejections.incrementAndGet() >= this.freeAt.get()) {
				this.busy.get().countDown();
			}
			throw new RejectedExecutionException("busy");
		});
		pool.initialize();
		return pool;
	}

	/**
	 * Take the pool's only thread until the total of rejections reaches {@code freeAt}.
	 */
	private void occupy(ThreadPoolTaskExecutor pool, int freeAt) {
		this.freeAt.set(freeAt);
		this.busy.set(new CountDownLatch(1));
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			try {
				pool.execute(this.blocker);
				return true;
			}
			catch (RejectedExecutionException ex) {
				return false;
			}
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActiveCount() == 1);
	}

	private static Map<String, String> serverState(KubernetesClient admin) {
		return NAMESPACES.stream()
			.flatMap((namespace) -> admin.configMaps()
				.inNamespace(namespace)
				.withField("metadata.name!=kube-root-ca.crt", null)
				.list()
				.getItems()
				.stream())
			.collect(Collectors.toMap(RejectingExecutorIT::key, (cm) -> cm.getMetadata().getResourceVersion()));
	}

	private static String key(ConfigMap configMap) {
		return configMap.getMetadata().getNamespace() + "/" + configMap.getMetadata().getName();
	}

}
