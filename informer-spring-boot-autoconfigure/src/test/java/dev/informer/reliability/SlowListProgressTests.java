package dev.informer.reliability;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMapList;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.informer.runtime.ResourceInformer;
import dev.informer.test.InformerContexts;
import dev.informer.watch.Watch;

import static dev.informer.reliability.FaultServer.cm;
import static dev.informer.reliability.FaultServer.list;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the startup progress line reads while a paginated list is slow: the objects of the
 * pages that arrived are cached (and counted) before the list completes, so "objects
 * cached so far" grows page by page.
 */
class SlowListProgressTests {

	private static final String NS = "slow";

	@AutoClose
	private final FaultServer faults = FaultServer.start();

	private final ApplicationContextRunner runner = this.faults.declaring(NS)
		.withPropertyValues("informer.resources.configmaps.list-page-size=2", "informer.startup.wait-for-sync=false");

	@Test
	void theObjectsOfTheFirstPageAreCachedWhileTheSecondIsOnItsWay() {
		ConfigMapList first = list("20", cm(NS, "a", "1"), cm(NS, "b", "2"));
		first.getMetadata().setContinue("t1");
		this.faults.lists("/api/v1/namespaces/" + NS + "/configmaps?limit=2", first);
		// the second page outlasts the test
		this.faults.server()
			.expect()
			.get()
			.delay(60, TimeUnit.SECONDS)
			.withPath("/api/v1/namespaces/" + NS + "/configmaps?continue=t1&limit=2")
			.andReturn(200, list("30", cm(NS, "c", "3")))
			.once();
		this.runner.run((context) -> {
			ResourceInformer<?> informer = InformerContexts.informer(context);
			Watch watch = informer.getWatches().get(0);
			await().atMost(Duration.ofSeconds(10)).until(() -> watch.snapshot().cache().size() == 2);
			assertThat(watch.isSynced()).isFalse();
			assertThat(informer.isSynced()).isFalse();
		});
	}

}
