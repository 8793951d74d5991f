package dev.informer.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.Test;

import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.test.MockApiServer;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The cap on concurrent initial lists: tasks beyond it wait for a release, in order, and
 * every watch of a capped start still syncs.
 */
class ListPermitsTests {

	@Test
	void tasksBeyondTheCapWaitForARelease() {
		ListPermits permits = new ListPermits(2);
		List<String> started = new ArrayList<>();
		permits.run(() -> started.add("a"));
		permits.run(() -> started.add("b"));
		permits.run(() -> started.add("c"));
		permits.run(() -> started.add("d"));
		assertThat(started).containsExactly("a", "b");
		assertThat(permits.inUse()).isEqualTo(2);
		permits.release();
		assertThat(started).containsExactly("a", "b", "c");
		permits.release();
		permits.release();
		permits.release();
		assertThat(started).containsExactly("a", "b", "c", "d");
		assertThat(permits.inUse()).isZero();
	}

	@Test
	void thousandsOfWaitingTasksThatReleaseAtOnceRunOnABoundedStack() {
		ListPermits permits = new ListPermits(1);
		permits.run(() -> {
		});
		int[] ran = new int[1];
		// each start fails synchronously and gives its permit back (issue 32, point 10)
		for (int i = 0; i < 100_000; i++) {
			permits.run(() -> {
				ran[0]++;
				permits.release();
			});
		}
		permits.release();
		assertThat(ran[0]).isEqualTo(100_000);
		assertThat(permits.inUse()).isZero();
	}

	@Test
	void withoutACapEveryTaskRunsAtOnce() {
		List<String> started = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			ListPermits.UNLIMITED.run(() -> started.add("x"));
		}
		assertThat(started).hasSize(100);
	}

	@Test
	void everyNamespaceOfACappedStartSyncsAndGivesItsPermitBack() throws Exception {
		try (MockApiServer mock = MockApiServer.crud()) {
			List<String> namespaces = new ArrayList<>();
			for (int i = 0; i < 6; i++) {
				namespaces.add("capped-" + i);
				mock.client().configMaps().resource(TestResources.configMap("capped-" + i, "cm", "v")).create();
			}
			ResourceInformer<ConfigMap> informer = TestWatches.configMaps(Clock.systemUTC(),
					new InformerEventPublisher(), Duration.ZERO, namespaces.toArray(String[]::new));
			ListPermits permits = new ListPermits(2);
			try {
				informer.start(mock.client(), List.of(), permits).get(30, TimeUnit.SECONDS);
				assertThat(informer.getCache().size()).isEqualTo(6);
				// the last list gives its permit back on fabric8's thread, after handing
				// on
				await().atMost(Duration.ofSeconds(10)).until(() -> permits.inUse() == 0);
			}
			finally {
				informer.stop();
			}
		}
	}

}
