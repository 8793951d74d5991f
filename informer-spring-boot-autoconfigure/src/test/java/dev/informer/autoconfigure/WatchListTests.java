package dev.informer.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code informer.watch-list}: the initial state comes from a watch with
 * {@code sendInitialEvents=true}, and an API server that refuses it (as one with the
 * WatchList feature gate off does, with HTTP 422) gets the plain list and watch instead,
 * with a warning naming the property. That a real server serves the watch-list is proven
 * by {@code WatchListIT}.
 */
@ExtendWith(OutputCaptureExtension.class)
class WatchListTests {

	private static final String WATCH_LIST = "/api/v1/namespaces/refused/configmaps?allowWatchBookmarks=true"
			+ "&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=600&watch=true";

	private final MockApiServer mock = MockApiServer.crud();

	@AfterEach
	void stopServer() {
		this.mock.close();
	}

	@Test
	void aServerThatRefusesTheWatchListGetsAListAndAWatchInstead(CapturedOutput output) throws Exception {
		this.mock.server()
			.expect()
			.get()
			.withPath(WATCH_LIST)
			.andReturn(422, new StatusBuilder().withStatus("Failure")
				.withCode(422)
				.withReason("Invalid")
				.withMessage("ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: "
						+ "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled")
				.build())
			.always();
		for (int i = 0; i < 3; i++) {
			this.mock.client().configMaps().resource(TestResources.configMap("refused", "cm-" + i, "v")).create();
		}
		InformerContexts.runner(this.mock::client)
			.withBean(RecordingListener.class)
			.withPropertyValues("informer.watch-list=true", "informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap", "informer.resources.configmaps.namespaces=refused")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RecordingListener listener = context.getBean(RecordingListener.class);
				assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
					.containsExactlyInAnyOrder("cm-0", "cm-1", "cm-2");
				// the mock server sends a watch only what changes once it is open (a real
				// server replays from the list's resourceVersion)
				Watch watch = context.getBean(DefaultInformerRegistry.class).informer("configmaps").getWatches().get(0);
				await().until(() -> watch.isWatching() && watch.snapshot().liveness().lastByteAt() != null);
				this.mock.client().configMaps().inNamespace("refused").withName("cm-1").delete();
				await().until(() -> listener.events(ResourceDeletedEvent.class).size() == 1);
			});
		List<String> paths = new ArrayList<>();
		for (RecordedRequest request = this.mock.server()
			.takeRequest(1, TimeUnit.SECONDS); request != null; request = this.mock.server()
				.takeRequest(100, TimeUnit.MILLISECONDS)) {
			paths.add(request.getPath());
		}
		assertThat(paths).contains(WATCH_LIST);
		assertThat(paths)
			.filteredOn(
					(path) -> path.startsWith("/api/v1/namespaces/refused/configmaps?") && !path.contains("watch=true"))
			.hasSize(1);
		assertThat(output).contains("the API server refused a watch-list (informer.watch-list=true): HTTP 422");
	}

}
