package dev.informer.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.assertj.core.api.SoftAssertions;
import org.assertj.core.api.SoftAssertionsProvider;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.InformerState;
import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.test.InvariantListener;
import dev.informer.test.RandomChanges;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A bounded soak on a real API server: a fixed number of random changes to a slow,
 * variable listener, in phases interleaved with cut connections, relists, bursts ending
 * in deletes, a compaction (the resumed watch gets 410 Gone) and a kube-apiserver restart
 * longer than {@code informer.reliability.replace-stalled-after}. At the end the
 * listener's view equals the server's state with no invariant violation, the informer
 * watches, and thread count and heap after GC are where they were after the first phase
 * (leak checks, with margins).
 * <p>
 * The server is a dedicated, restartable one without the watch cache and compacting every
 * two seconds, as in {@link InformerCompactionIT}. Override the seed with
 * {@code -Dinformer.invariant.seed=N}; a failure prints it.
 */
class SoakIT {

	private static final String NAMESPACE = "it-soak";

	private static final long SEED = Long.getLong("informer.invariant.seed", 20261201L);

	private static final String RERUN = "seed " + SEED + " (rerun with -Dinformer.invariant.seed=" + SEED + ")";

	private static final int OBJECTS = 200;

	private static final int CHANGES_PER_PHASE = 300;

	private static final Duration REPLACE_STALLED_AFTER = Duration.ofSeconds(3);

	private static RealApiServer server;

	private static KubernetesClient admin;

	@BeforeAll
	@Timeout(value = 5, unit = TimeUnit.MINUTES)
	static void startServer() {
		server = RealApiServer.startRestartable("--watch-cache=false", "--etcd-compaction-interval=2s");
		admin = server.adminClient();
		TestResources.createNamespaces(admin, NAMESPACE, NAMESPACE + "-elsewhere");
	}

	@AfterAll
	static void stopServer() {
		if (admin != null) {
			admin.close();
		}
		if (server != null) {
			server.close();
		}
	}

	@Test
	@Timeout(value = 10, unit = TimeUnit.MINUTES)
	void aSlowListenerKeepsTheInvariantThroughDropsRelistsCompactionAndARestartWithoutLeaking() throws Exception {
		System.out.println("SoakIT: " + RERUN);
		try (TcpProxy proxy = server.newProxy();
				KubernetesClient informerClient = new KubernetesClientBuilder()
					.withConfig(server.adminConfigThrough(proxy))
					.build()) {
			runner(informerClient).run((context) -> {
				InvariantListener listener = context.getBean(InvariantListener.class);
				ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
				Watch status = informer.getWatches().get(0);
				RandomChanges changes = new RandomChanges(admin, NAMESPACE, SEED, OBJECTS);

				// phase 1: changes with drops and relists;
				// then the baseline of the leak checks
				changes.run(CHANGES_PER_PHASE, 40, (dice) -> {
					if (dice < 60) {
						drop(proxy);
					}
					else {
						informer.relist();
					}
				});
				// quiet, not asserted yet: the soak goes
				// on and the end names every violation
				listener.awaitQuiet(changes::serverState, Duration.ofSeconds(90));
				int threads = threadCount();
				long heap = usedHeapAfterGc();
				System.out.printf("SoakIT: after phase 1: %d threads, %d KB heap after GC, %d events%n", threads,
						heap / 1024, listener.eventCount());

				// phase 2: bursts ending in deletes, each followed by a relist while the
				// listener is behind
				changes.run(CHANGES_PER_PHASE, 30, (dice) -> {
					changes.burst(20);
					informer.relist();
				});

				progress("phase 2 (bursts)", status);

				// phase 3: a compaction while disconnected: the watch
				// cannot resume (410 Gone, or a replacement if the cut
				// outlasts replace-stalled-after); either way a relist
				await().atMost(Duration.ofSeconds(60)).until(() -> status.snapshot().connection().watching());
				long relists = status.snapshot().lists().relistCount();
				proxy.cut();
				String resumeFrom = status.snapshot().cache().lastResourceVersion();
				changes.run(30, 0, (dice) -> {
				});
				await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
					// the compactor compacts up to the
					// revision it saw on its previous tick
					admin.configMaps()
						.resource(TestResources.configMap(NAMESPACE + "-elsewhere", "tick",
								Long.toString(System.nanoTime())))
						.serverSideApply();
					return RealApiServer.isCompacted(admin, resumeFrom);
				});
				proxy.restore();
				changes.run(CHANGES_PER_PHASE - 30, 60, (dice) -> drop(proxy));
				await().atMost(Duration.ofSeconds(60))
					.untilAsserted(() -> assertThat(status.snapshot().lists().relistCount())
						.as(() -> "a relist after the compaction (relists " + status.snapshot().lists().relists() + ")")
						.isGreaterThan(relists));

				progress("phase 3 (compaction)", status);

				// phase 4: the kube-apiserver is down for longer than
				// replace-stalled-after
				server.killApiServer();
				await().pollDelay(REPLACE_STALLED_AFTER.multipliedBy(2))
					.atMost(Duration.ofSeconds(60))
					.until(() -> !status.snapshot().connection().watching());
				server.restartApiServer();
				changes.run(CHANGES_PER_PHASE, 50, (dice) -> informer.relist());

				progress("phase 4 (restart)", status);

				// phase 5: everything mixed
				changes.run(CHANGES_PER_PHASE, 30, (dice) -> {
					if (dice < 40) {
						drop(proxy);
					}
					else if (dice < 70) {
						informer.relist();
					}
					else {
						changes.burst(20);
						informer.relist();
					}
				});

				listener.awaitQuiet(changes::serverState, Duration.ofSeconds(120));
				System.out.printf("SoakIT: %d events delivered; relists %s; state %s%n", listener.eventCount(),
						status.snapshot().lists().relists(), status.getState());
				// every check, so that one failure does not hide the others
				SoftAssertions softly = new SoftAssertions();
				check(softly, () -> listener.awaitReplayOf(changes::serverState, RERUN, Duration.ofSeconds(10)));
				check(softly,
						() -> await().atMost(Duration.ofSeconds(60))
							.untilAsserted(() -> assertThat(status.getState())
								.as(() -> "the informer's state (relists " + status.snapshot().lists().relists()
										+ ", last error " + status.getLastError() + ")")
								.isEqualTo(InformerState.WATCHING)));
				// leak checks: threads and heap come
				// back to where they were after phase 1
				check(softly,
						() -> await().atMost(Duration.ofSeconds(60))
							.untilAsserted(() -> assertThat(threadCount())
								.as(RERUN + ": live threads, " + threads + " after phase 1")
								.isLessThanOrEqualTo(threads + 5)));
				check(softly,
						() -> await().atMost(Duration.ofSeconds(30))
							.untilAsserted(() -> assertThat(usedHeapAfterGc())
								.as(RERUN + ": used heap after GC, " + heap + " bytes after phase 1")
								.isLessThanOrEqualTo(heap * 3 / 2)));
				System.out.printf("SoakIT: at the end: %d threads, %d KB heap after GC%n", threadCount(),
						usedHeapAfterGc() / 1024);
				softly.assertAll();
			});
		}
	}

	// an Awaitility timeout is not an AssertionError; collect it as one
	private static void check(SoftAssertions softly, SoftAssertionsProvider.ThrowingRunnable check) {
		softly.check(() -> {
			try {
				check.run();
			}
			catch (ConditionTimeoutException ex) {
				throw new AssertionError(ex.getMessage(), ex);
			}
		});
	}

	private static void progress(String phase, Watch status) {
		System.out.printf("SoakIT: %s done; relists %s; state %s%n", phase, status.snapshot().lists().relists(),
				status.getState());
	}

	// the proxy's pool keeps idle threads for a minute; they are not the informers'
	private static int threadCount() {
		return (int) Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> !thread.getName().equals("tcp-proxy"))
			.count();
	}

	private static long usedHeapAfterGc() {
		System.gc();
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

	private static void drop(TcpProxy proxy) {
		try {
			proxy.cut();
			proxy.restore();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private ApplicationContextRunner runner(KubernetesClient client) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> client, (definition) -> definition.setDestroyMethodName(""))
			.withBean(InvariantListener.class, () -> new InvariantListener(SEED, Duration.ofMillis(20)))
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + NAMESPACE,
					"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt",
					"informer.reliability.replace-stalled-after=" + REPLACE_STALLED_AFTER.toSeconds() + "s");
	}

}
