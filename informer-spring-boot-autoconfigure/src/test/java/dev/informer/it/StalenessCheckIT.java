package dev.informer.it;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import dev.informer.it.RealApiServer.ApiRequest;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchSnapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The staleness check on the real API server: each check is one list of at most one
 * object, whose resourceVersion the cache of a live watch reaches, so the lag it reports
 * stays zero once reached; the requests it costs are counted here from the server's audit
 * log.
 */
class StalenessCheckIT {

	private static final String NAMESPACE = "it-staleness";

	@Test
	void aLiveWatchReachesWhatTheServerHadAndEachCheckIsOneSmallList() {
		RealApiServer server = RealApiServer.get();
		try (KubernetesClient admin = server.adminClient()) {
			TestResources.createNamespaces(admin, NAMESPACE);
			InformerContexts.runner(() -> admin)
				.withPropertyValues("informer.resources.configmaps.api-version=v1",
						"informer.resources.configmaps.kind=ConfigMap",
						"informer.resources.configmaps.namespaces=" + NAMESPACE,
						"informer.health.staleness-check-period=2s")
				.run((context) -> {
					Watch watch = context.getBean(DefaultInformerRegistry.class)
						.informer("configmaps")
						.getWatches()
						.get(0);
					Instant start = Instant.now();
					await().atMost(Duration.ofSeconds(30)).until(() -> watch.snapshot().lag().checks() >= 3);
					// writes move the server and, through the watch, the cache
					for (int i = 0; i < 5; i++) {
						admin.configMaps().resource(TestResources.configMap(NAMESPACE, "cm-" + i, "v")).create();
					}
					long checksBefore = watch.snapshot().lag().checks();
					// the server's version moves with every write in the cluster (the
					// API server's own Lease every 10 s), the cache's with this
					// namespace's events and bookmarks, about once a minute: a check
					// finds the cache at or past the server's version after the
					// next bookmark at the latest
					await().atMost(Duration.ofSeconds(150))
						.until(() -> watch.snapshot().lag().checks() >= checksBefore + 2
								&& Duration.ZERO.equals(watch.snapshot().lag().staleFor()));
					WatchSnapshot.Lag lag = watch.snapshot().lag();
					assertThat(lag.serverResourceVersion()).isNotNull();
					assertThat(lag.checkFailures()).isZero();
					assertThat(lag.behind()).isNotNull();
					Duration elapsed = Duration.between(start, Instant.now());
					// the server writes a request's audit event after its
					// response: the last check may reach the log a moment
					// after the informer counted it
					List<ApiRequest> checks = await().atMost(Duration.ofSeconds(10))
						.until(() -> server.requests("list", "configmaps", NAMESPACE)
							.stream()
							.filter((request) -> "1".equals(request.parameter("limit"))
									&& request.parameter("resourceVersion") == null)
							.toList(), (logged) -> logged.size() >= lag.checks());
					System.out.println("StalenessCheckIT: " + lag.checks() + " checks (" + checks.size()
							+ " limit=1 lists in the audit log) in " + elapsed.toSeconds()
							+ " s with a 2 s period; lag " + lag);
				});
		}
	}

}
