package dev.informer.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.test.InformerContexts;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code informer.watch-list=true} on a real API server: the initial state arrives from
 * one watch with {@code sendInitialEvents=true} and no list, in full and before the
 * synced event, then changes; a server with the WatchList feature gate off refuses it,
 * and the informer lists and watches instead.
 */
@ExtendWith(OutputCaptureExtension.class)
class WatchListIT {

	private static final String NAMESPACE = "it-watch-list";

	private static final int OBJECTS = 200;

	private static KubernetesClient admin;

	@BeforeAll
	static void createObjects() {
		admin = RealApiServer.get().adminClient();
		TestResources.createNamespaces(admin, NAMESPACE);
		for (int i = 0; i < OBJECTS; i++) {
			admin.configMaps().resource(TestResources.configMap(NAMESPACE, "cm-" + i, "v" + i)).create();
		}
	}

	@AfterAll
	static void closeClient() {
		if (admin != null) {
			admin.close();
		}
	}

	private static ApplicationContextRunner runner(KubernetesClient client, String namespace) {
		return InformerContexts.runner(() -> client)
			.withBean(RecordingListener.class)
			.withPropertyValues("informer.watch-list=true", "informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + namespace);
	}

	@Test
	void theInitialStateComesFromOneWatchAndChangesFollow() {
		runner(admin, NAMESPACE).run((context) -> {
			assertThat(context).hasNotFailed();
			RecordingListener listener = context.getBean(RecordingListener.class);
			// startup waited for the sync: every object arrived before the synced event
			assertThat(listener.events(ResourceAddedEvent.class)).hasSize(OBJECTS);
			assertThat(listener.events().get(OBJECTS)).isInstanceOfSatisfying(InformerSyncedEvent.class,
					(synced) -> assertThat(synced.getCacheSize()).isEqualTo(OBJECTS));
			admin.configMaps().inNamespace(NAMESPACE).withName("cm-1").edit((cm) -> {
				cm.setData(Map.of("value", "changed"));
				return cm;
			});
			admin.configMaps().inNamespace(NAMESPACE).withName("cm-2").delete();
			await().until(() -> listener.events(ResourceDeletedEvent.class).size() == 1
					&& listener.events(ResourceUpdatedEvent.class).size() == 1);
		});
		RealApiServer server = RealApiServer.get();
		assertThat(server.requests("list", "configmaps", NAMESPACE)).isEmpty();
		List<RealApiServer.ApiRequest> watches = server.requests("watch", "configmaps", NAMESPACE);
		assertThat(watches).isNotEmpty();
		assertThat(watches.get(0).parameter("sendInitialEvents")).isEqualTo("true");
		assertThat(watches.get(0).parameter("resourceVersionMatch")).isEqualTo("NotOlderThan");
	}

	@Test
	void aServerWithoutTheWatchListFeatureGetsAListAndAWatch(CapturedOutput output) {
		try (RealApiServer server = RealApiServer.startDedicated("--feature-gates=WatchList=false")) {
			KubernetesClient client = server.adminClient();
			try {
				String namespace = "it-watch-list-off";
				TestResources.createNamespaces(client, namespace);
				List<String> names = new ArrayList<>();
				for (int i = 0; i < 5; i++) {
					client.configMaps().resource(TestResources.configMap(namespace, "cm-" + i, "v")).create();
					names.add("cm-" + i);
				}
				runner(client, namespace).run((context) -> {
					assertThat(context).hasNotFailed();
					RecordingListener listener = context.getBean(RecordingListener.class);
					assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
						.containsExactlyInAnyOrderElementsOf(names);
					client.configMaps().inNamespace(namespace).withName("cm-0").delete();
					await().until(() -> listener.events(ResourceDeletedEvent.class).size() == 1);
				});
				assertThat(server.requests("list", "configmaps", namespace)).hasSize(1);
				assertThat(output).contains("the API server refused a watch-list (informer.watch-list=true)");
			}
			finally {
				client.close();
			}
		}
	}

}
