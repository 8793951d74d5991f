package dev.informer.test;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationEvent;

import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.test.InformerEvents.Change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link InformerEvents} and {@link InformerEventsAssert}, fed with events
 * directly.
 */
class InformerEventsTests {

	private static final Duration SHORT = Duration.ofMillis(200);

	private final InformerEvents events = new InformerEvents(Set.of("configmaps", "secrets"));

	@Test
	void receivedAddedWaitsForAnEventThatArrivesLater() {
		Executor later = CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS);
		CompletableFuture<Void> published = CompletableFuture.runAsync(() -> this.events.onApplicationEvent(added("x")),
				later);
		assertThat(this.events).receivedAdded("configmaps", "default", "x");
		assertThat(published).isDone();
	}

	@Test
	void receivedAddedFailsWithWhatTheObjectReceived() {
		this.events.onApplicationEvent(updated("x"));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.events).within(SHORT).receivedAdded("configmaps", "default", "x"))
			.withMessageContaining("Expected informer 'configmaps' to receive ADDED for default/x")
			.withMessageContaining("ResourceUpdatedEvent[informer=configmaps, kind=ConfigMap, object=default/x");
	}

	@Test
	void matchesInformerNamespaceAndName() {
		this.events.onApplicationEvent(new ResourceAddedEvent<>("other", ConfigMap.class, configMap("default", "x")));
		this.events
			.onApplicationEvent(new ResourceAddedEvent<>("configmaps", ConfigMap.class, configMap("other", "x")));
		this.events.onApplicationEvent(added("y"));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.events).within(SHORT).receivedAdded("configmaps", "default", "x"));
		assertThat(this.events).receivedAdded("configmaps", "other", "x").receivedAdded("configmaps", "default", "y");
	}

	@Test
	void receivedInOrderAllowsChangesInBetween() {
		this.events.onApplicationEvent(added("x"));
		this.events.onApplicationEvent(updated("x"));
		this.events.onApplicationEvent(deleted("x"));
		assertThat(this.events).receivedInOrder("configmaps", "default", "x", Change.ADDED, Change.DELETED);
	}

	@Test
	void receivedInOrderFailsForAnotherOrder() {
		this.events.onApplicationEvent(added("x"));
		this.events.onApplicationEvent(deleted("x"));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.events).within(SHORT)
				.receivedInOrder("configmaps", "default", "x", Change.DELETED, Change.ADDED))
			.withMessageContaining("to receive [DELETED, ADDED] in this order");
	}

	@Test
	void receivedExactlyFailsForAnExtraChange() {
		this.events.onApplicationEvent(added("x"));
		this.events.onApplicationEvent(updated("x"));
		this.events.onApplicationEvent(deleted("x"));
		assertThat(this.events).receivedExactly("configmaps", "default", "x", Change.ADDED, Change.UPDATED,
				Change.DELETED);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.events).within(SHORT)
				.receivedExactly("configmaps", "default", "x", Change.ADDED, Change.DELETED))
			.withMessageContaining(
					"to receive exactly [ADDED, DELETED] for default/x but it received [ADDED, UPDATED, DELETED]");
	}

	@Test
	void awaitSyncedWaitsForEveryInformer() {
		this.events.onApplicationEvent(synced("configmaps"));
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> this.events.awaitSynced(SHORT))
			.withMessageContaining("Informers [secrets] did not sync");
		Executor later = CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS);
		CompletableFuture.runAsync(() -> this.events.onApplicationEvent(synced("secrets")), later);
		this.events.awaitSynced();
		assertThat(this.events.synced()).containsExactlyInAnyOrder("configmaps", "secrets");
	}

	@Test
	void recordsOnlyInformerEvents() {
		assertThat(this.events.supportsEventType(ResourceAddedEvent.class)).isTrue();
		assertThat(this.events.supportsEventType(InformerSyncedEvent.class)).isTrue();
		assertThat(this.events.supportsEventType(ApplicationEvent.class)).isFalse();
	}

	private static ResourceAddedEvent<ConfigMap> added(String name) {
		return new ResourceAddedEvent<>("configmaps", ConfigMap.class, configMap("default", name));
	}

	private static ResourceUpdatedEvent<ConfigMap> updated(String name) {
		return new ResourceUpdatedEvent<>("configmaps", ConfigMap.class, configMap("default", name),
				configMap("default", name));
	}

	private static ResourceDeletedEvent<ConfigMap> deleted(String name) {
		return new ResourceDeletedEvent<>("configmaps", ConfigMap.class, configMap("default", name), false);
	}

	private static InformerSyncedEvent synced(String informer) {
		return new InformerSyncedEvent(informer, 0, Duration.ZERO);
	}

	private static ConfigMap configMap(String namespace, String name) {
		return new ConfigMapBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata().build();
	}

}
