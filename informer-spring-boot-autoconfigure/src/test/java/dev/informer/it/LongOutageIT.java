package dev.informer.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.test.InvariantListener;
import dev.informer.test.RandomChanges;
import dev.informer.test.TestResources;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An informer over a large collection recovers from a control-plane outage longer than
 * {@code informer.reliability.replace-stalled-after} (issue 10, point 1): 10,000
 * ConfigMaps of 2 KB, the kube-apiserver killed for longer than that, then started again
 * on the same port against the same etcd. A replacement of the stalled informer must be
 * given the time its list takes; retiring it while it lists replaces it again and again,
 * and nothing is delivered any more.
 * <p>
 * The number of objects can be lowered with {@code -Dinformer.long-outage.objects=N} to
 * try the test quickly; the point shows only when a list takes longer than a watch
 * sample.
 */
class LongOutageIT {

	private static final String NAMESPACE = "it-long-outage";

	private static final int OBJECTS = Integer.getInteger("informer.long-outage.objects", 10_000);

	private static final Duration REPLACE_STALLED_AFTER = Duration.ofSeconds(3);

	private static final Duration OUTAGE = Duration.ofSeconds(10);

	private static RealApiServer server;

	private static KubernetesClient admin;

	@BeforeAll
	@Timeout(value = 10, unit = TimeUnit.MINUTES)
	static void startServerWithManyObjects() throws Exception {
		server = RealApiServer.startRestartable();
		admin = server.adminClient();
		TestResources.createNamespaces(admin, NAMESPACE);
		long started = System.nanoTime();
		createConfigMaps(admin, NAMESPACE, OBJECTS, 2048);
		System.out.printf("LongOutageIT: created %d ConfigMaps of 2 KB in %d ms%n", OBJECTS,
				TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
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
	void anInformerOverManyObjectsRecoversFromAnApiServerRestartLongerThanReplaceStalledAfter() throws Exception {
		try (KubernetesClient informerClient = server.adminClient()) {
			runner(informerClient).run((context) -> {
				InvariantListener listener = context.getBean(InvariantListener.class);
				ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
				Watch status = informer.getWatches().get(0);
				// listing 10,000 objects to compare is
				// costly: wait until they have arrived first
				await().atMost(Duration.ofMinutes(3)).until(() -> listener.eventCount() >= OBJECTS);
				listener.awaitReplayOf(() -> RandomChanges.serverState(admin, NAMESPACE), "initial list",
						Duration.ofSeconds(60));
				await().atMost(Duration.ofSeconds(60)).until(() -> status.snapshot().connection().watching());
				long listMillis = status.snapshot().lists().last().duration().toMillis();

				long killedAt = System.nanoTime();
				server.killApiServer();
				// the outage lasts longer than
				// replace-stalled-after; the watch is lost meanwhile
				await().pollDelay(OUTAGE)
					.atMost(OUTAGE.plusSeconds(60))
					.until(() -> !status.snapshot().connection().watching());
				server.restartApiServer();
				long outageMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
				long stalledAtRestart = status.snapshot().lists().relistCount(RelistReason.STALLED);
				System.out.printf(
						"LongOutageIT: list of %d objects took %d ms; outage %d ms; "
								+ "stalled replacements during the outage: %d%n",
						OBJECTS, listMillis, outageMillis, stalledAtRestart);

				admin.configMaps().resource(TestResources.configMap(NAMESPACE, "obj-after-restart", "1")).create();
				String key = NAMESPACE + "/obj-after-restart";
				await().atMost(Duration.ofSeconds(90))
					.untilAsserted(() -> assertThat(listener.applied().containsKey(key))
						.as(() -> "a ConfigMap created after the restart reaches the listener; the informer is "
								+ status.getState() + " (" + describe(status, stalledAtRestart) + ")")
						.isTrue());
				await().atMost(Duration.ofSeconds(60))
					.untilAsserted(() -> assertThat(status.snapshot().connection().watching())
						.as(() -> "the informer watches again (" + describe(status, stalledAtRestart) + ")")
						.isTrue());
				// recovered for good: it keeps watching for longer than
				// replace-stalled-after
				await().during(REPLACE_STALLED_AFTER.multipliedBy(2))
					.atMost(Duration.ofSeconds(60))
					.until(() -> status.snapshot().connection().watching());
				assertThat(status.snapshot().lists().relistCount(RelistReason.STALLED) - stalledAtRestart)
					.as(() -> "stalled replacements after the restart (" + describe(status, stalledAtRestart) + ")")
					.isLessThanOrEqualTo(2);
				listener.awaitReplayOf(() -> RandomChanges.serverState(admin, NAMESPACE), "after the restart",
						Duration.ofSeconds(90));
			});
		}
	}

	private static String describe(Watch status, long stalledAtRestart) {
		return "stalled replacements since the restart: "
				+ (status.snapshot().lists().relistCount(RelistReason.STALLED) - stalledAtRestart) + ", relists "
				+ status.snapshot().lists().relists() + ", last list " + status.snapshot().lists().last()
				+ ", last error " + status.getLastError();
	}

	/**
	 * Create ConfigMaps {@code obj-0}... with a value of the given size, a few at a time.
	 */
	static void createConfigMaps(KubernetesClient client, String namespace, int count, int size) throws Exception {
		String value = "x".repeat(size);
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Callable<Object>> creates = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				String name = "obj-" + i;
				creates.add(() -> client.configMaps()
					.resource(TestResources.configMap(namespace, name, Map.of(), value))
					.create());
			}
			for (Future<Object> created : threads.invokeAll(creates)) {
				created.get();
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	private ApplicationContextRunner runner(KubernetesClient client) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> client, (definition) -> definition.setDestroyMethodName(""))
			.withBean(InvariantListener.class)
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + NAMESPACE,
					"informer.resources.configmaps.field-selector=metadata.name!=kube-root-ca.crt",
					"informer.reliability.replace-stalled-after=" + REPLACE_STALLED_AFTER.toSeconds() + "s",
					"informer.startup.timeout=3m");
	}

}
