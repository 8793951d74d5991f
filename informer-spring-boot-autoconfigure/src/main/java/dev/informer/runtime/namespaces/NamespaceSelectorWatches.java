package dev.informer.runtime.namespaces;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import io.fabric8.kubernetes.client.KubernetesClient;

import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.runtime.recovery.RetryPolicy;

/**
 * The {@link NamespaceSelectorWatch}s of one client: one watch on Namespaces per distinct
 * {@code namespace-selector}, however many informers declare it. A selection's watch
 * starts with its first member and stops when its last member leaves.
 *
 * @since 0.1.0
 */
public final class NamespaceSelectorWatches {

	private final KubernetesClient client;

	private final Map<String, NamespaceSelectorWatch> selections = new HashMap<>();

	/**
	 * Create the selections of a client.
	 * @param client the client to watch Namespaces with
	 */
	public NamespaceSelectorWatches(KubernetesClient client) {
		this.client = client;
	}

	/**
	 * Return the watch of a selector, creating it on first use with the first member's
	 * retry policy, recovery options and clock; {@link #add} its members.
	 * @param selector the label selector
	 * @param retryPolicy whether fabric8 retries after an error
	 * @param recovery when its fabric8 informer is replaced
	 * @param clock the clock for status times
	 * @param availabilitySamples the samples of its availability window
	 * @return the watch
	 */
	public synchronized NamespaceSelectorWatch selection(String selector, RetryPolicy retryPolicy,
			RecoveryOptions recovery, Clock clock, int availabilitySamples) {
		return this.selections.computeIfAbsent(selector, (key) -> new NamespaceSelectorWatch(this.client, key,
				retryPolicy, recovery, clock, availabilitySamples));
	}

	/**
	 * Add a member to a selection.
	 * @param selection the selection
	 * @param member the member
	 * @return a future that completes, once the namespaces have been listed, with the
	 * namespaces matching then
	 */
	public CompletableFuture<Set<String>> add(NamespaceSelectorWatch selection, NamespaceSelectorWatch.Member member) {
		// outside this lock: the selection tells the member of its namespaces under its
		// own
		return selection.add(member);
	}

	public void remove(String selector, NamespaceSelectorWatch.Member member) {
		NamespaceSelectorWatch selection;
		synchronized (this) {
			selection = this.selections.get(selector);
			if (selection == null || !selection.remove(member)) {
				return;
			}
			this.selections.remove(selector);
		}
		selection.stop();
	}

	/**
	 * Return how many watches on Namespaces run.
	 * @return the number of distinct selectors watched
	 */
	public synchronized int size() {
		return this.selections.size();
	}

}
