package dev.informer.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import org.assertj.core.api.AssertProvider;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.SmartApplicationListener;

import dev.informer.event.InformerStateChangedEvent;
import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;

/**
 * Records the events the informers of an application context publish, in the order
 * listeners receive them, for assertions that wait instead of sleeping:
 * <pre class="code">
 * assertThat(events).receivedAdded("configmaps", "default", "x");
 * </pre> {@link InformerTest @InformerTest} registers one; elsewhere declare it as a
 * bean.
 * <p>
 * As a bean, it records each event after the context's other listeners of the same order
 * (by default all of them) handled it, so once an assertion has seen an event, what the
 * application's {@code @EventListener} methods did with it can be asserted without
 * waiting.
 *
 * @see InformerEventsAssert
 * @since 0.1.0
 */
public class InformerEvents implements SmartApplicationListener, ApplicationContextAware, SmartInitializingSingleton,
		AssertProvider<InformerEventsAssert> {

	/**
	 * How long assertions wait unless told otherwise: long enough for a real API server
	 * on a busy CI machine, short enough to fail a test that will never pass in
	 * reasonable time.
	 */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

	private final List<ApplicationEvent> events = new CopyOnWriteArrayList<>();

	private final Set<String> informers;

	private @Nullable ApplicationContext context;

	/**
	 * Create an instance that knows no informer names, so {@link #awaitSynced()} waits
	 * for none.
	 */
	public InformerEvents() {
		this(Set.of());
	}

	/**
	 * Create an instance.
	 * @param informers the names of the informers that {@link #awaitSynced()} waits for
	 */
	public InformerEvents(Set<String> informers) {
		this.informers = Set.copyOf(informers);
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	/**
	 * Move this listener behind the {@code @EventListener} methods, which the context
	 * registers once all singletons exist, that is after this bean: listeners of equal
	 * order are called in registration order.
	 */
	@Override
	public void afterSingletonsInstantiated() {
		if (this.context instanceof ConfigurableApplicationContext configurable) {
			configurable.removeApplicationListener(this);
			configurable.addApplicationListener(this);
		}
	}

	@Override
	public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
		return ResourceEvent.class.isAssignableFrom(eventType) || InformerSyncedEvent.class.isAssignableFrom(eventType)
				|| InformerStateChangedEvent.class.isAssignableFrom(eventType);
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		this.events.add(event);
	}

	/**
	 * Return every recorded event, in order.
	 * @return the events
	 */
	public List<ApplicationEvent> all() {
		return List.copyOf(this.events);
	}

	/**
	 * Return the recorded events of one object, in the order listeners received them.
	 * @param informer the informer name (the key under {@code informer.resources})
	 * @param namespace the namespace, {@code null} for a cluster-scoped object
	 * @param name the object's name
	 * @return the events
	 */
	public List<ResourceEvent<?>> of(String informer, @Nullable String namespace, String name) {
		List<ResourceEvent<?>> matching = new ArrayList<>();
		for (ApplicationEvent event : this.events) {
			if (event instanceof ResourceEvent<?> resourceEvent && informer.equals(resourceEvent.getInformerName())
					&& Objects.equals(namespace, resourceEvent.getNamespace())
					&& name.equals(resourceEvent.getName())) {
				matching.add(resourceEvent);
			}
		}
		return matching;
	}

	/**
	 * Return the names of the informers that published {@link InformerSyncedEvent}.
	 * @return the synced informers
	 */
	public Set<String> synced() {
		return this.events.stream()
			.filter(InformerSyncedEvent.class::isInstance)
			.map((event) -> ((InformerSyncedEvent) event).getInformerName())
			.collect(Collectors.toUnmodifiableSet());
	}

	/**
	 * Wait until every informer of the context has synced, for {@link #DEFAULT_TIMEOUT}.
	 * Only needed with {@code informer.startup.wait-for-sync=false}: otherwise the
	 * context starts after the informers synced.
	 * @return this instance
	 * @throws AssertionError if an informer did not sync in time
	 */
	public InformerEvents awaitSynced() {
		return awaitSynced(DEFAULT_TIMEOUT);
	}

	/**
	 * Wait until every informer of the context has synced.
	 * @param timeout how long to wait
	 * @return this instance
	 * @throws AssertionError if an informer did not sync in time
	 */
	public InformerEvents awaitSynced(Duration timeout) {
		try {
			Awaitility.await("informers " + this.informers + " synced")
				.atMost(timeout)
				.pollInterval(Duration.ofMillis(20))
				.until(() -> synced().containsAll(this.informers));
		}
		catch (ConditionTimeoutException ex) {
			Set<String> missing = new TreeSet<>(this.informers);
			missing.removeAll(synced());
			throw new AssertionError("Informers " + missing + " did not sync within " + timeout
					+ "; their state changes: " + stateChanges(missing), ex);
		}
		return this;
	}

	private List<ApplicationEvent> stateChanges(Set<String> informers) {
		return this.events.stream()
			.filter((event) -> event instanceof InformerStateChangedEvent changed
					&& informers.contains(changed.getInformerName()))
			.toList();
	}

	@Override
	public InformerEventsAssert assertThat() {
		return new InformerEventsAssert(this);
	}

	/**
	 * The kinds of change an informer reports for an object.
	 *
	 * @since 0.1.0
	 */
	public enum Change {

		/**
		 * {@link ResourceAddedEvent}.
		 */
		ADDED(ResourceAddedEvent.class),

		/**
		 * {@link ResourceUpdatedEvent}, resyncs included.
		 */
		UPDATED(ResourceUpdatedEvent.class),

		/**
		 * {@link ResourceDeletedEvent}.
		 */
		DELETED(ResourceDeletedEvent.class);

		private final Class<?> eventType;

		Change(Class<?> eventType) {
			this.eventType = eventType;
		}

		/**
		 * Return the change an event reports.
		 * @param event the event
		 * @return the change
		 */
		public static Change of(ResourceEvent<?> event) {
			for (Change change : values()) {
				if (change.eventType.isInstance(event)) {
					return change;
				}
			}
			throw new IllegalArgumentException("Unknown resource event " + event.getClass().getName());
		}

	}

}
