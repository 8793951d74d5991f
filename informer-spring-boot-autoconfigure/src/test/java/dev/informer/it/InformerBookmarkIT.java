package dev.informer.it;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.it.RealApiServer.ApiRequest;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.test.InformerContexts;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Bookmarks on a real API server: a watch on a namespace where nothing changes still
 * learns how far the cluster has moved, so a reconnect resumes from a recent
 * resourceVersion instead of one that may have been compacted away (which would cost a
 * relist).
 * <p>
 * fabric8's informer asks for bookmarks ({@code allowWatchBookmarks=true}) and its
 * BOOKMARK handling only moves {@code lastSyncResourceVersion}. The API server's watch
 * cache sends each such watch a bookmark about a minute after it starts and every minute
 * after that (and two seconds before the watch's timeout, which fabric8 sets to ten
 * minutes), carrying the newest resourceVersion the cache has reached for the resource,
 * whichever namespace moved it. So this test needs a little over a minute.
 * (resourceVersions are opaque to clients; the test compares them as numbers because it
 * knows the server is backed by etcd.)
 */
class InformerBookmarkIT {

	private static final String NAMESPACE = "it-bookmark";

	private static final String ELSEWHERE = "it-bookmark-elsewhere";

	private static RealApiServer server;

	private static KubernetesClient admin;

	@BeforeAll
	static void startServer() {
		server = RealApiServer.get();
		admin = server.adminClient();
		TestResources.createNamespaces(admin, NAMESPACE, ELSEWHERE);
	}

	@AfterAll
	static void closeClient() {
		if (admin != null) {
			admin.close();
		}
	}

	@Test
	@Timeout(value = 150, unit = TimeUnit.SECONDS)
	void aQuietWatchAdvancesOnBookmarksAndResumesFromThem() throws Exception {
		try (TcpProxy proxy = server.newProxy();
				KubernetesClient proxied = new KubernetesClientBuilder().withConfig(server.adminConfigThrough(proxy))
					.build()) {
			runner(proxied).run((context) -> {
				RecordingListener listener = context.getBean(RecordingListener.class);
				ResourceInformer<?> informer = context.getBean(DefaultInformerRegistry.class).informer("configmaps");
				Watch status = informer.getWatches().get(0);
				await().until(() -> status.snapshot().connection().watching());
				long listed = version(status.snapshot().cache().lastResourceVersion());
				ApiRequest watch = await()
					.until(() -> server.requests("watch", "configmaps", NAMESPACE), (requests) -> !requests.isEmpty())
					.get(0);
				assertThat(watch.parameter("allowWatchBookmarks")).isEqualTo("true");
				assertThat(watch.parameter("resourceVersion")).isEqualTo(Long.toString(listed));
				// the watch monitor has sampled the listed version
				Instant quietSince = await().until(status::getLastActivityAt, (at) -> at != null);

				// the cluster moves on, the watched namespace does not
				long elsewhere = version(
						admin.configMaps().resource(TestResources.configMap(ELSEWHERE, "elsewhere", "1")).create());
				assertThat(elsewhere).isGreaterThan(listed);
				// a bookmark carries the newest version the server's
				// watch cache has reached, usually later than this
				// change; one sent before it would not reach it
				await().atMost(Duration.ofSeconds(90))
					.pollInterval(Duration.ofMillis(500))
					.until(() -> version(status.snapshot().cache().lastResourceVersion()) >= elsewhere);
				assertThat(listener.resourceEvents()).isEmpty();
				assertThat(status.snapshot().events().lastAt()).isNull();
				// progress that health can see, without any event
				await().until(status::getLastActivityAt, (at) -> at.isAfter(quietSince));

				proxy.cut();
				// nothing reaches the informer now: this is the version it resumes from
				String bookmarked = status.snapshot().cache().lastResourceVersion();
				proxy.restore();
				List<ApiRequest> watches = await().atMost(Duration.ofSeconds(60))
					.until(() -> server.requests("watch", "configmaps", NAMESPACE), (requests) -> requests.size() >= 2);
				assertThat(watches.get(1).parameter("resourceVersion")).isEqualTo(bookmarked);
				await().until(() -> status.snapshot().connection().watching());
				// one list, the first: a staleness check (a list with
				// limit=1, docs/observability.md) is not a relist
				assertThat(server.requests("list", "configmaps", NAMESPACE))
					.filteredOn((request) -> !"1".equals(request.parameter("limit")))
					.hasSize(1);
				assertThat(status.snapshot().lists().relistCount()).isZero();
				assertThat(listener.resourceEvents()).isEmpty();
			});
		}
	}

	private ApplicationContextRunner runner(KubernetesClient client) {
		return InformerContexts.runner(() -> client)
			.withBean(RecordingListener.class)
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + NAMESPACE);
	}

	private static long version(HasMetadata resource) {
		return version(resource.getMetadata().getResourceVersion());
	}

	private static long version(@Nullable String resourceVersion) {
		return (resourceVersion != null) ? Long.parseLong(resourceVersion) : 0;
	}

}
