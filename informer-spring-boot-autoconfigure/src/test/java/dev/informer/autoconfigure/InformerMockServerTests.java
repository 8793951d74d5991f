package dev.informer.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.annotation.Order;

import dev.informer.ResourceCache;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.test.Gadget;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * End-to-end through a real list and watch against fabric8's mock API server in CRUD
 * mode. Each test uses its own namespaces, as the server is shared.
 */
class InformerMockServerTests {

	private static MockApiServer mock;

	private static KubernetesMockServer server;

	private static KubernetesClient client;

	static void startServer() {
		mock = MockApiServer.crud();
		server = mock.server();
		client = mock.client();
	}

	@AfterAll
	static void stopServer() {
		mock.close();
	}

	private final ApplicationContextRunner runner = InformerContexts.runner(() -> client)
		.withBean(RecordingListener.class);

	@BeforeAll
	static void installCrds() {
		startServer();
		client.apiextensions()
			.v1()
			.customResourceDefinitions()
			.resource(TestResources.crd("widgets", "Widget"))
			.create();
		client.apiextensions()
			.v1()
			.customResourceDefinitions()
			.resource(TestResources.crd("gadgets", "Gadget"))
			.create();
	}

	@Test
	void initialObjectsArriveAsAddedEventsBeforeTheSyncedEvent() {
		for (int i = 0; i < 3; i++) {
			client.configMaps().resource(TestResources.configMap("initial", "cm-" + i, "v" + i)).create();
		}
		this.runner.withPropertyValues(configMaps("initial")).run((context) -> {
			// startup waited for sync: no await needed
			List<ApplicationEvent> events = context.getBean(RecordingListener.class).events();
			assertThat(events).hasSize(4);
			assertThat(events.subList(0, 3))
				.allSatisfy((event) -> assertThat(event).isInstanceOf(ResourceAddedEvent.class));
			assertThat(events.subList(0, 3)).extracting((event) -> ((ResourceEvent<?>) event).getName())
				.containsExactlyInAnyOrder("cm-0", "cm-1", "cm-2");
			assertThat(events.get(3)).isInstanceOfSatisfying(InformerSyncedEvent.class, (synced) -> {
				assertThat(synced.getInformerName()).isEqualTo("configmaps");
				assertThat(synced.getCacheSize()).isEqualTo(3);
			});
		});
	}

	@Test
	void updatesAndDeletesArriveInOrderWithOldAndNewState() {
		this.runner.withPropertyValues(configMaps("changes")).run((context) -> {
			RecordingListener listener = context.getBean(RecordingListener.class);
			client.configMaps().resource(TestResources.configMap("changes", "app", "one")).create();
			client.configMaps().inNamespace("changes").withName("app").edit((cm) -> {
				cm.getData().put("value", "two");
				return cm;
			});
			client.configMaps().inNamespace("changes").withName("app").delete();
			await().until(() -> listener.events(ResourceDeletedEvent.class).size() == 1);
			List<ResourceEvent<?>> events = listener.resourceEvents();
			assertThat(events).extracting((event) -> event.getClass().getSimpleName())
				.containsExactly("ResourceAddedEvent", "ResourceUpdatedEvent", "ResourceDeletedEvent");
			ResourceUpdatedEvent<?> updated = (ResourceUpdatedEvent<?>) events.get(1);
			assertThat(((ConfigMap) updated.getOldResource()).getData()).containsEntry("value", "one");
			assertThat(((ConfigMap) updated.getResource()).getData()).containsEntry("value", "two");
			assertThat(updated.isResync()).isFalse();
			assertThat(((ResourceDeletedEvent<?>) events.get(2)).isFinalStateUnknown()).isFalse();
			assertThat(events).allSatisfy((event) -> {
				assertThat(event.getInformerName()).isEqualTo("configmaps");
				assertThat(event.getNamespace()).isEqualTo("changes");
				assertThat(event.getKind()).isEqualTo("ConfigMap");
			});
			long first = Long.parseLong(events.get(0).getResourceVersion());
			long second = Long.parseLong(events.get(1).getResourceVersion());
			assertThat(second).isGreaterThan(first);
		});
	}

	@Test
	void typedListenersOnlyReceiveTheirKind() {
		this.runner.withBean(TypedListeners.class)
			.withPropertyValues(configMaps("typed"))
			.withPropertyValues("informer.resources.secrets.api-version=v1", "informer.resources.secrets.kind=Secret",
					"informer.resources.secrets.namespaces=typed")
			.run((context) -> {
				TypedListeners listeners = context.getBean(TypedListeners.class);
				client.configMaps().resource(TestResources.configMap("typed", "cm", "x")).create();
				client.secrets()
					.resource(new SecretBuilder().withNewMetadata()
						.withNamespace("typed")
						.withName("s")
						.endMetadata()
						.addToStringData("password", "hunter2")
						.build())
					.create();
				await().until(() -> listeners.secrets.size() == 1 && listeners.configMaps.size() == 1);
				assertThat(listeners.configMaps).allSatisfy((cm) -> assertThat(cm).isInstanceOf(ConfigMap.class));
				assertThat(listeners.secrets).allSatisfy((secret) -> assertThat(secret).isInstanceOf(Secret.class));
				ResourceEvent<?> secretEvent = context.getBean(RecordingListener.class)
					.events(ResourceAddedEvent.class, (event) -> "secrets".equals(event.getInformerName()))
					.get(0);
				assertThat(secretEvent.toString()).contains("typed/s")
					.doesNotContain("hunter2")
					.doesNotContain("aHVudGVyMg");
			});
	}

	@Test
	void genericCustomResourcesAreRoutedByCondition() {
		this.runner.withBean(WidgetListener.class)
			.withPropertyValues("informer.resources.widgets.api-version=example.com/v1",
					"informer.resources.widgets.kind=Widget", "informer.resources.widgets.namespaces=generic")
			.run((context) -> {
				WidgetListener listener = context.getBean(WidgetListener.class);
				client.genericKubernetesResources("example.com/v1", "Widget")
					.resource(TestResources.widget("generic", "w1", "blue"))
					.create();
				await().until(() -> listener.widgets.size() == 1);
				GenericKubernetesResource widget = listener.widgets.get(0);
				assertThat(widget.getMetadata().getName()).isEqualTo("w1");
				assertThat(widget.<String>get("spec", "color")).isEqualTo("blue");
				assertThat(context.getBean(DefaultInformerRegistry.class)
					.cache("widgets", GenericKubernetesResource.class)
					.get("generic", "w1")).isPresent();
			});
	}

	@Test
	void typedCustomResourcesAreDeserializedIntoTheirClass() {
		this.runner.withBean(GadgetListener.class)
			.withPropertyValues("informer.resources.gadgets.api-version=example.com/v1",
					"informer.resources.gadgets.kind=Gadget",
					"informer.resources.gadgets.type=" + Gadget.class.getName(),
					"informer.resources.gadgets.namespaces=typed-crd")
			.run((context) -> {
				GadgetListener listener = context.getBean(GadgetListener.class);
				Gadget gadget = new Gadget();
				gadget.getMetadata().setName("g1");
				gadget.getMetadata().setNamespace("typed-crd");
				gadget.setSpec(new Gadget.Spec());
				gadget.getSpec().setSize("large");
				client.resources(Gadget.class).resource(gadget).create();
				await().until(() -> listener.gadgets.size() == 1);
				assertThat(listener.gadgets.get(0).getSpec().getSize()).isEqualTo("large");
			});
	}

	@Test
	void severalNamespacesAreWatchedAndOthersIgnored() {
		client.configMaps().resource(TestResources.configMap("ns-a", "before", "x")).create();
		this.runner.withPropertyValues(configMaps("ns-a,ns-b")).run((context) -> {
			RecordingListener listener = context.getBean(RecordingListener.class);
			client.configMaps().resource(TestResources.configMap("ns-c", "ignored", "x")).create();
			client.configMaps().resource(TestResources.configMap("ns-b", "after", "x")).create();
			await().until(() -> listener.events(ResourceAddedEvent.class).size() == 2);
			ResourceCache<ConfigMap> cache = context.getBean(DefaultInformerRegistry.class)
				.cache("configmaps", ConfigMap.class);
			assertThat(cache.size()).isEqualTo(2);
			assertThat(cache.list("ns-a")).extracting((cm) -> cm.getMetadata().getName()).containsExactly("before");
			assertThat(cache.list("ns-b")).extracting((cm) -> cm.getMetadata().getName()).containsExactly("after");
			assertThat(cache.get("ns-c", "ignored")).isEmpty();
			assertThat(cache.get("ns-a", "before")).isPresent();
			// the synced event follows both namespaces' initial lists
			assertThat(listener.events(InformerSyncedEvent.class)).singleElement()
				.satisfies((synced) -> assertThat(synced.getCacheSize()).isEqualTo(1));
		});
	}

	@Test
	void labelSelectorIsAppliedByTheServer() {
		// the mock evaluates equality selectors only;
		// set-based ones are proven on the real server
		this.runner.withPropertyValues(configMaps("labels"))
			.withPropertyValues("informer.resources.configmaps.label-selector=app=web")
			.run((context) -> {
				RecordingListener listener = context.getBean(RecordingListener.class);
				client.configMaps()
					.resource(TestResources.configMap("labels", "db", Map.of("app", "db"), "x"))
					.create();
				client.configMaps()
					.resource(TestResources.configMap("labels", "web", Map.of("app", "web"), "x"))
					.create();
				await().until(() -> listener.events(ResourceAddedEvent.class).size() >= 1);
				client.configMaps()
					.resource(TestResources.configMap("labels", "web2", Map.of("app", "web"), "x"))
					.create();
				await().until(() -> listener.events(ResourceAddedEvent.class).size() >= 2);
				assertThat(listener.events(ResourceAddedEvent.class)).extracting((event) -> event.getName())
					.containsExactly("web", "web2");
			});
	}

	@Test
	void aListenerThatThrowsAffectsNeitherOtherListenersNorLaterEvents() {
		this.runner.withBean(ThrowingListener.class).withPropertyValues(configMaps("throwing")).run((context) -> {
			RecordingListener listener = context.getBean(RecordingListener.class);
			client.configMaps().resource(TestResources.configMap("throwing", "first", "x")).create();
			client.configMaps().resource(TestResources.configMap("throwing", "second", "x")).create();
			await().until(() -> listener.events(ResourceAddedEvent.class).size() == 2);
			assertThat(context.getBean(ThrowingListener.class).calls).hasSize(2);
			DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
			assertThat(registry.informer("configmaps").getWatches().get(0).snapshot().events().listenerFailures())
				.isEqualTo(2);
		});
	}

	@Test
	void lambdaListenersOfOtherEventTypesAreNotCountedAsFailures() {
		List<ContextClosedEvent> closed = new CopyOnWriteArrayList<>();
		this.runner.withPropertyValues(configMaps("lambda"))
			.withInitializer(
					(context) -> context.addApplicationListener((ContextClosedEvent event) -> closed.add(event)))
			.run((context) -> {
				RecordingListener listener = context.getBean(RecordingListener.class);
				client.configMaps().resource(TestResources.configMap("lambda", "cm", "x")).create();
				await().until(() -> listener.events(ResourceAddedEvent.class).size() == 1);
				assertThat(context.getBean(DefaultInformerRegistry.class)
					.informer("configmaps")
					.getWatches()
					.get(0)
					.snapshot()
					.events()
					.listenerFailures()).isZero();
			});
		assertThat(closed).hasSize(1);
	}

	@Test
	void managedFieldsAreStrippedByDefaultAndKeptOnRequest() {
		ConfigMap withManagedFields = TestResources.configMap("managed", "cm", "x");
		withManagedFields.getMetadata()
			.setManagedFields(
					List.of(new ManagedFieldsEntryBuilder().withManager("kubectl").withOperation("Apply").build()));
		client.configMaps().resource(withManagedFields).create();
		this.runner.withPropertyValues(configMaps("managed")).run((context) -> {
			ResourceAddedEvent<?> added = context.getBean(RecordingListener.class)
				.events(ResourceAddedEvent.class)
				.get(0);
			assertThat(added.getResource().getMetadata().getManagedFields()).isNullOrEmpty();
		});
		this.runner.withPropertyValues(configMaps("managed"))
			.withPropertyValues("informer.resources.configmaps.strip-managed-fields=false")
			.run((context) -> {
				ResourceAddedEvent<?> added = context.getBean(RecordingListener.class)
					.events(ResourceAddedEvent.class)
					.get(0);
				assertThat(added.getResource().getMetadata().getManagedFields()).hasSize(1);
			});
	}

	@Test
	void cacheAccessRejectsWrongNamesAndTypesListingWhatExists() {
		this.runner.withPropertyValues(configMaps("cache")).run((context) -> {
			DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
			assertThat(registry.names()).containsExactly("configmaps");
			assertThatIllegalArgumentException().isThrownBy(() -> registry.cache("configmaps", Secret.class))
				.withMessageContaining("holds io.fabric8.kubernetes.api.model.ConfigMap")
				.withMessageContaining("configmaps (ConfigMap)");
			assertThatIllegalArgumentException().isThrownBy(() -> registry.cache("secrets", Secret.class))
				.withMessageContaining("No informer named 'secrets'")
				.withMessageContaining("configmaps (ConfigMap)");
		});
	}

	@Test
	void noEventIsPublishedAfterTheContextCloses() {
		AtomicReference<RecordingListener> stopped = new AtomicReference<>();
		this.runner.withPropertyValues(configMaps("shutdown"))
			.run((context) -> stopped.set(context.getBean(RecordingListener.class)));
		// a second context proves the server has delivered the change to live informers
		this.runner.withPropertyValues(configMaps("shutdown")).run((context) -> {
			RecordingListener live = context.getBean(RecordingListener.class);
			client.configMaps().resource(TestResources.configMap("shutdown", "late", "x")).create();
			await().until(() -> live.events(ResourceAddedEvent.class).size() == 1);
		});
		assertThat(stopped.get().events()).singleElement().isInstanceOf(InformerSyncedEvent.class);
	}

	private static String[] configMaps(String namespaces) {
		return new String[] { "informer.resources.configmaps.api-version=v1",
				"informer.resources.configmaps.kind=ConfigMap",
				"informer.resources.configmaps.namespaces=" + namespaces };
	}

	static class TypedListeners {

		final List<ConfigMap> configMaps = new CopyOnWriteArrayList<>();

		final List<Secret> secrets = new CopyOnWriteArrayList<>();

		@EventListener
		void configMap(ResourceAddedEvent<ConfigMap> event) {
			this.configMaps.add(event.getResource());
		}

		@EventListener
		void secret(ResourceAddedEvent<Secret> event) {
			this.secrets.add(event.getResource());
		}

	}

	static class WidgetListener {

		final List<GenericKubernetesResource> widgets = new CopyOnWriteArrayList<>();

		@EventListener(condition = "#event.informerName == 'widgets'")
		void on(ResourceAddedEvent<GenericKubernetesResource> event) {
			this.widgets.add(event.getResource());
		}

	}

	static class GadgetListener {

		final List<Gadget> gadgets = new CopyOnWriteArrayList<>();

		@EventListener
		void on(ResourceAddedEvent<Gadget> event) {
			this.gadgets.add(event.getResource());
		}

	}

	static class ThrowingListener {

		final List<String> calls = new CopyOnWriteArrayList<>();

		@Order(-1)
		@EventListener
		void on(ResourceAddedEvent<ConfigMap> event) {
			this.calls.add(event.getName());
			throw new IllegalStateException("listener bug");
		}

	}

}
