package dev.informer.test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import org.assertj.core.api.AbstractAssert;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;

import dev.informer.test.InformerEvents.Change;

/**
 * AssertJ assertions on {@link InformerEvents}, obtained with
 * {@code Assertions.assertThat(events)}. Each assertion waits until the events it expects
 * arrive, for {@link InformerEvents#DEFAULT_TIMEOUT} unless {@link #within(Duration)}
 * says otherwise, and fails with the events the object did receive.
 *
 * @since 0.1.0
 */
public class InformerEventsAssert extends AbstractAssert<InformerEventsAssert, InformerEvents> {

	private final Duration timeout;

	InformerEventsAssert(InformerEvents events) {
		this(events, InformerEvents.DEFAULT_TIMEOUT);
	}

	private InformerEventsAssert(InformerEvents events, Duration timeout) {
		super(events, InformerEventsAssert.class);
		this.timeout = timeout;
	}

	/**
	 * Return assertions that wait for the given time.
	 * @param timeout how long to wait
	 * @return the assertions
	 */
	public InformerEventsAssert within(Duration timeout) {
		return new InformerEventsAssert(this.actual, timeout);
	}

	/**
	 * Verify that an informer reported that an object was added.
	 * @param informer the informer name (the key under {@code informer.resources})
	 * @param namespace the namespace, {@code null} for a cluster-scoped object
	 * @param name the object's name
	 * @return this
	 */
	public InformerEventsAssert receivedAdded(String informer, @Nullable String namespace, String name) {
		return received(informer, namespace, name, Change.ADDED);
	}

	/**
	 * Verify that an informer reported that an object was updated.
	 * @param informer the informer name (the key under {@code informer.resources})
	 * @param namespace the namespace, {@code null} for a cluster-scoped object
	 * @param name the object's name
	 * @return this
	 */
	public InformerEventsAssert receivedUpdated(String informer, @Nullable String namespace, String name) {
		return received(informer, namespace, name, Change.UPDATED);
	}

	/**
	 * Verify that an informer reported that an object was deleted.
	 * @param informer the informer name (the key under {@code informer.resources})
	 * @param namespace the namespace, {@code null} for a cluster-scoped object
	 * @param name the object's name
	 * @return this
	 */
	public InformerEventsAssert receivedDeleted(String informer, @Nullable String namespace, String name) {
		return received(informer, namespace, name, Change.DELETED);
	}

	private InformerEventsAssert received(String informer, @Nullable String namespace, String name, Change change) {
		awaitOrFail(informer, namespace, name, (received) -> received.contains(change), "to receive " + change);
		return this;
	}

	/**
	 * Verify that an informer reported the given changes of one object in this order,
	 * with possibly other changes between them (resyncs, for example).
	 * @param informer the informer name (the key under {@code informer.resources})
	 * @param namespace the namespace, {@code null} for a cluster-scoped object
	 * @param name the object's name
	 * @param changes the changes, in order
	 * @return this
	 */
	public InformerEventsAssert receivedInOrder(String informer, @Nullable String namespace, String name,
			Change... changes) {
		List<Change> expected = Arrays.asList(changes);
		awaitOrFail(informer, namespace, name, (received) -> containsInOrder(received, expected),
				"to receive " + expected + " in this order");
		return this;
	}

	/**
	 * Verify that an informer reported exactly the given changes of one object, in this
	 * order; waits until it reported that many, then compares.
	 * @param informer the informer name (the key under {@code informer.resources})
	 * @param namespace the namespace, {@code null} for a cluster-scoped object
	 * @param name the object's name
	 * @param changes the changes, in order
	 * @return this
	 */
	public InformerEventsAssert receivedExactly(String informer, @Nullable String namespace, String name,
			Change... changes) {
		List<Change> expected = Arrays.asList(changes);
		awaitOrFail(informer, namespace, name, (received) -> received.size() >= expected.size(),
				"to receive " + expected);
		List<Change> received = changes(informer, namespace, name);
		if (!received.equals(expected)) {
			failWithMessage("Expected informer '%s' to receive exactly %s for %s but it received %s: %s", informer,
					expected, describe(namespace, name), received, this.actual.of(informer, namespace, name));
		}
		return this;
	}

	private void awaitOrFail(String informer, @Nullable String namespace, String name,
			Predicate<List<Change>> condition, String expectation) {
		isNotNull();
		try {
			Awaitility.await()
				.atMost(this.timeout)
				.pollInterval(Duration.ofMillis(20))
				.until(() -> condition.test(changes(informer, namespace, name)));
		}
		catch (ConditionTimeoutException ex) {
			failWithMessage("Expected informer '%s' %s for %s within %s, but it received %s; synced informers: %s",
					informer, expectation, describe(namespace, name), this.timeout,
					this.actual.of(informer, namespace, name), this.actual.synced());
		}
	}

	private List<Change> changes(String informer, @Nullable String namespace, String name) {
		return this.actual.of(informer, namespace, name).stream().map(Change::of).toList();
	}

	private static boolean containsInOrder(List<Change> received, List<Change> expected) {
		int next = 0;
		for (Change change : received) {
			if (next < expected.size() && change == expected.get(next)) {
				next++;
			}
		}
		return next == expected.size();
	}

	private static String describe(@Nullable String namespace, String name) {
		return (namespace != null) ? namespace + "/" + name : name;
	}

}
