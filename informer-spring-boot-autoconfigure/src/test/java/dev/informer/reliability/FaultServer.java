package dev.informer.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.ConfigMapListBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.dsl.EventDoneable;
import io.fabric8.mockwebserver.dsl.Onceable;
import io.fabric8.mockwebserver.dsl.TimesOrOnceable;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.AutoClose;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;

import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.ResourceInformer;
import dev.informer.test.InformerContexts;
import dev.informer.test.MockApiServer;
import dev.informer.test.RecordingListener;
import dev.informer.test.TestResources;
import dev.informer.watch.Watch;

import static org.awaitility.Awaitility.await;

/**
 * The fault tests' fixture: fabric8's mock API server answering only expectations (plus
 * core discovery), a client that shows faults to the informer at once, a log of the paths
 * requested, and context runners that drive one informer through it. A test class holds
 * one in an {@link AutoClose @AutoClose} field and names only what it varies: the
 * server's answers, properties and listeners.
 * <p>
 * The client does not retry failed requests in its HTTP layer (by default fabric8 retries
 * 5xx and I/O errors 10 times over about 19 s before the informer sees them) and starts
 * its reconnect backoff at {@value #BACKOFF_MILLIS} ms instead of 1 s, doubling as usual.
 */
final class FaultServer implements AutoCloseable {

	/**
	 * The first reconnect interval of {@link #client()}; fabric8 doubles it per attempt.
	 */
	static final int BACKOFF_MILLIS = 200;

	private final MockApiServer mock;

	private final KubernetesClient client;

	private final List<String> requests = new ArrayList<>();

	private final boolean httpWatches;

	private FaultServer(MockApiServer mock, boolean httpWatches) {
		this.mock = mock;
		this.httpWatches = httpWatches;
		this.client = newClient();
	}

	static FaultServer start() {
		return new FaultServer(MockApiServer.expectations().withCoreDiscovery(), false);
	}

	/**
	 * Start a server whose core discovery serves one namespaced resource other than
	 * ConfigMaps.
	 * @param plural the resource's plural name
	 * @param kind the resource's kind
	 * @return the server
	 */
	static FaultServer serving(String plural, String kind) {
		return new FaultServer(MockApiServer.expectations().withCoreDiscovery(plural, kind), false);
	}

	/**
	 * Start a server that answers no discovery request unless told to.
	 * @return the server
	 */
	static FaultServer withoutDiscovery() {
		return new FaultServer(MockApiServer.expectations(), false);
	}

	/**
	 * Start a server whose client watches with plain HTTP requests rather than
	 * WebSockets.
	 * @return the server
	 */
	static FaultServer withHttpWatches() {
		return new FaultServer(MockApiServer.expectations().withCoreDiscovery(), true);
	}

	KubernetesMockServer server() {
		return this.mock.server();
	}

	KubernetesClient client() {
		return this.client;
	}

	/**
	 * Return the mock's own client, with fabric8's default request retries and reconnect
	 * backoff (1 s, doubling), for tests whose fault plays out over that timing.
	 * @return the client
	 */
	KubernetesClient defaultClient() {
		return this.mock.client();
	}

	/**
	 * Return a runner of one informer, {@code configmaps}, in the given namespaces,
	 * through {@link #client()}, with a {@link RecordingListener}; see
	 * {@link InformerContexts#configMaps}.
	 * @param namespaces the declaration's {@code namespaces} value
	 * @return the runner
	 */
	ApplicationContextRunner configMaps(String namespaces) {
		return InformerContexts.configMaps(this::client, namespaces);
	}

	/**
	 * Return a runner like {@link #configMaps(String)} without the
	 * {@link RecordingListener}, for tests that bring their own listeners.
	 * @param namespaces the declaration's {@code namespaces} value
	 * @return the runner
	 */
	ApplicationContextRunner declaring(String namespaces) {
		return InformerContexts.runner(this::client)
			.withPropertyValues("informer.resources.configmaps.api-version=v1",
					"informer.resources.configmaps.kind=ConfigMap",
					"informer.resources.configmaps.namespaces=" + namespaces);
	}

	/**
	 * Adapt a check of the {@code configmaps} informer to a context consumer: it gets the
	 * recording listener, the informer and its first watch of a context started by a
	 * {@link #configMaps(String)} runner.
	 * @param check the check
	 * @return the context consumer
	 */
	static ContextConsumer<AssertableApplicationContext> withInformer(InformerCheck check) {
		return (context) -> check.check(context, InformerContexts.listener(context), InformerContexts.informer(context),
				InformerContexts.watch(context));
	}

	/**
	 * Create another client like {@link #client()}, for its caller to close.
	 * @return the client
	 */
	KubernetesClient newClient() {
		return this.mock.server()
			.createClient((builder) -> builder
				.withConfig(new ConfigBuilder(this.mock.client().getConfiguration()).withRequestRetryBackoffLimit(0)
					.withWatchReconnectInterval(BACKOFF_MILLIS)
					.withOnlyHttpWatches(this.httpWatches)
					.build()));
	}

	/**
	 * Return every path requested so far, in order, discovery excluded.
	 * @return the paths
	 */
	synchronized List<String> paths() {
		try {
			RecordedRequest request;
			while ((request = this.mock.server().takeRequest(1, TimeUnit.MILLISECONDS)) != null) {
				if (!request.getPath().equals("/api/v1")) {
					this.requests.add(request.getPath());
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return List.copyOf(this.requests);
	}

	/**
	 * Return how often a path has been requested so far.
	 * @param path the path, with its query
	 * @return the count
	 */
	long count(String path) {
		return paths().stream().filter(path::equals).count();
	}

	/**
	 * Wait (up to 10 s) until a path has been requested.
	 * @param path the path, with its query
	 */
	void awaitRequested(String path) {
		await().atMost(Duration.ofSeconds(10)).until(() -> paths().contains(path));
	}

	/**
	 * Answer the next request of a path with a list.
	 * @param path the list path
	 * @param list the list, or its JSON text
	 */
	void lists(String path, Object list) {
		server().expect().get().withPath(path).andReturn(200, list).once();
	}

	/**
	 * Answer every request of a path with a list.
	 * @param path the list path
	 * @param list the list
	 */
	void listsAlways(String path, Object list) {
		server().expect().get().withPath(path).andReturn(200, list).always();
	}

	/**
	 * Answer every request of a path with a failure status, its code as the HTTP status.
	 * @param path the path
	 * @param status the status
	 */
	void failsAlways(String path, Status status) {
		server().expect().get().withPath(path).andReturn(status.getCode(), status).always();
	}

	/**
	 * Answer the next requests of a path with a failure status, its code as the HTTP
	 * status.
	 * @param path the path
	 * @param status the status
	 * @param times how many requests to fail
	 */
	void fails(String path, Status status, int times) {
		server().expect().get().withPath(path).andReturn(status.getCode(), status).times(times);
	}

	/**
	 * Answer a watch request with a WebSocket that sends the events 50 ms apart and then
	 * stays open until the client closes it.
	 * @param path the watch path
	 * @param events the events: {@link WatchEvent}s, or JSON text sent as it is
	 */
	void watchStaysOpen(String path, Object... events) {
		var session = server().expect().get().withPath(path).andUpgradeToWebSocket().open();
		for (Object event : events) {
			session = session.waitFor(50).andEmit(event);
		}
		staysOpen(session);
	}

	/**
	 * Answer a watch request with a WebSocket that sends all events at once, in order,
	 * and then stays open until the client closes it.
	 * @param path the watch path
	 * @param events the events
	 */
	void watchBurst(String path, List<WatchEvent> events) {
		var session = server().expect().get().withPath(path).andUpgradeToWebSocket().open();
		for (WatchEvent event : events) {
			session = session.immediately().andEmit(event);
		}
		staysOpen(session);
	}

	// the mock closes a session once nothing more is expected: expect a message never
	// sent
	private static <T extends Onceable<?>> void staysOpen(EventDoneable<T> session) {
		session.expect("never sent")
			.andEmit(new WatchEvent(cm(FaultServer.class.getSimpleName(), "unused", "0"), "BOOKMARK"))
			.once()
			.done()
			.once();
	}

	/**
	 * Answer a watch request with a WebSocket that sends the events 50 ms apart and then
	 * closes normally (code 1000), as an API server does when a watch times out.
	 * @param path the watch path
	 * @param events the events: {@link WatchEvent}s, or JSON text sent as it is
	 */
	void watchCloses(String path, Object... events) {
		closingWatch(path, 50, events).once();
	}

	/**
	 * Expect a watch request to be answered with a WebSocket that sends the events
	 * {@code delayMillis} apart and then closes normally (code 1000).
	 * @param path the watch path
	 * @param delayMillis the wait before each event
	 * @param events the events: {@link WatchEvent}s, or JSON text sent as it is
	 * @return the expectation, to answer {@code once()}, {@code times(n)} or
	 * {@code always()}
	 */
	TimesOrOnceable<Void> closingWatch(String path, long delayMillis, Object... events) {
		var session = server().expect().get().withPath(path).andUpgradeToWebSocket().open();
		for (Object event : events) {
			session = session.waitFor(delayMillis).andEmit(event);
		}
		return session.done();
	}

	@Override
	public void close() {
		this.client.close();
		this.mock.close();
	}

	static String listPath(String namespace) {
		return relistPath(namespace) + "?resourceVersion=0";
	}

	/**
	 * After 410 Gone fabric8 lists without {@code resourceVersion=0}: a consistent read,
	 * not one from the watch cache whose version just expired.
	 */
	static String relistPath(String namespace) {
		return "/api/v1/namespaces/" + namespace + "/configmaps";
	}

	static String watchPath(String namespace, String resourceVersion) {
		return relistPath(namespace) + "?allowWatchBookmarks=true&resourceVersion=" + resourceVersion
				+ "&timeoutSeconds=600&watch=true";
	}

	static boolean isWatch(String path) {
		return path.contains("watch=true");
	}

	static ConfigMap cm(String namespace, String name, String resourceVersion) {
		return new ConfigMapBuilder(TestResources.configMap(namespace, name, "v" + resourceVersion)).editMetadata()
			.withResourceVersion(resourceVersion)
			.endMetadata()
			.build();
	}

	/**
	 * Return ConfigMaps {@code o0}, {@code o1}, … at versions 1, 2, ….
	 * @param namespace the namespace
	 * @param count how many
	 * @return the ConfigMaps
	 */
	static List<ConfigMap> objects(String namespace, int count) {
		List<ConfigMap> objects = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			objects.add(cm(namespace, "o" + i, String.valueOf(i + 1)));
		}
		return objects;
	}

	/**
	 * Return MODIFIED events that go round the {@link #objects(String, int) objects}
	 * {@code o0} to {@code o<objects - 1>} at versions 101, 102, …: a burst of changes
	 * after a list at version 100.
	 * @param namespace the namespace
	 * @param objects how many objects the events go round
	 * @param count how many events
	 * @return the events, in order
	 */
	static List<WatchEvent> modifications(String namespace, int objects, int count) {
		List<WatchEvent> events = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			events.add(event("MODIFIED", cm(namespace, "o" + (i % objects), String.valueOf(101 + i))));
		}
		return events;
	}

	/**
	 * Return the definition of one informer, {@code configmaps}, of ConfigMaps in a
	 * namespace, for tests that build the informer without a context.
	 * @param namespace the namespace
	 * @return the definition
	 */
	static InformerDefinition<ConfigMap> definition(String namespace) {
		InformerDeclaration declaration = InformerDeclaration.builder("configmaps")
			.apiVersion("v1")
			.kind("ConfigMap")
			.namespaces(List.of(namespace))
			.build();
		return new InformerDefinition<>(declaration, ConfigMap.class, "configmaps", true);
	}

	static ConfigMapList list(String resourceVersion, ConfigMap... items) {
		return new ConfigMapListBuilder().withNewMetadata()
			.withResourceVersion(resourceVersion)
			.endMetadata()
			.withItems(items)
			.build();
	}

	static Status status(int code, String reason, String message) {
		return new StatusBuilder().withStatus("Failure").withCode(code).withReason(reason).withMessage(message).build();
	}

	static WatchEvent event(String type, ConfigMap object) {
		return new WatchEvent(object, type);
	}

	/**
	 * Describe events as {@code "<type> <name> <resourceVersion>"}, with
	 * {@code " unknown"} for a deletion noticed by a relist and {@code " resync"} for a
	 * resync.
	 * @param events the events
	 * @return the descriptions, in order
	 */
	static List<String> describe(List<? extends ResourceEvent<?>> events) {
		return events.stream().map((event) -> {
			String flag = "";
			if (event instanceof ResourceDeletedEvent<?> deleted && deleted.isFinalStateUnknown()) {
				flag = " unknown";
			}
			if (event instanceof ResourceUpdatedEvent<?> updated && updated.isResync()) {
				flag = " resync";
			}
			String type = event.getClass().getSimpleName().replace("Resource", "").replace("Event", "").toLowerCase();
			return type + " " + event.getName() + " " + event.getResourceVersion() + flag;
		}).toList();
	}

	/**
	 * Return the updates a listener received, resyncs included, in order.
	 * @param listener the listener
	 * @return the updates
	 */
	static List<ResourceUpdatedEvent<?>> updates(RecordingListener listener) {
		return listener.resourceEvents()
			.stream()
			.filter(ResourceUpdatedEvent.class::isInstance)
			.<ResourceUpdatedEvent<?>>map(ResourceUpdatedEvent.class::cast)
			.toList();
	}

	static WatchEvent gone() {
		return new WatchEvent(status(410, "Expired", "too old resource version"), "ERROR");
	}

	/**
	 * A check of the {@code configmaps} informer in a started context: see
	 * {@link FaultServer#withInformer(InformerCheck)}.
	 */
	@FunctionalInterface
	interface InformerCheck {

		void check(AssertableApplicationContext context, RecordingListener listener, ResourceInformer<?> informer,
				Watch watch) throws Throwable;

	}

}
