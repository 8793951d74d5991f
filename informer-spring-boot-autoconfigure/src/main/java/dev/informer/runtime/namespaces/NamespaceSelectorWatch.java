package dev.informer.runtime.namespaces;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.runtime.status.WatchInput;
import dev.informer.runtime.recovery.RecoveryCheck;
import dev.informer.runtime.recovery.RecoveryOptions;
import dev.informer.runtime.recovery.ReplacementBackOff;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.runtime.status.ListTrigger;
import dev.informer.runtime.status.WatchContents;
import dev.informer.runtime.status.WatchStatus;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;

/**
 * One watch on Namespaces with a label selector applied by the API server, shared by
 * every informer declared with that {@code namespace-selector}: it tells each of them
 * which namespaces join (start matching: created or labelled) and leave (stop matching:
 * unlabelled, which the server reports as a deletion from the selection, or deleted).
 * <p>
 * A watch like any other: its {@link #status() status} is sampled by the watch monitor
 * (through its first member) and read by health and metrics, and a fabric8 informer that
 * stopped, keeps failing or stalled is replaced, as {@link RecoveryOptions} say, by one
 * seeded with the namespaces known, so that its list reports only what changed meanwhile
 * (namespaces that stopped matching leave).
 * <p>
 * Members are told under this selection's lock, so that a member's first namespaces
 * (those matching when it joined) and the changes after them reach it in order.
 *
 * @since 0.1.0
 */
public final class NamespaceSelectorWatch {

	private static final Log logger = LogFactory.getLog(NamespaceSelectorWatch.class);

	private final KubernetesClient client;

	private final String selector;

	private final RetryPolicy retryPolicy;

	private final RecoveryOptions recovery;

	private final Clock clock;

	private final WatchStatus status;

	private final List<Member> members = new CopyOnWriteArrayList<>();

	private volatile Generation current;

	private @Nullable CompletableFuture<Void> started;

	private final ReplacementBackOff backOff;

	private @Nullable Instant nextReplacementAt;

	private volatile boolean stopped;

	NamespaceSelectorWatch(KubernetesClient client, String selector, RetryPolicy retryPolicy, RecoveryOptions recovery,
			Clock clock, int availabilitySamples) {
		this.client = client;
		this.selector = selector;
		this.retryPolicy = retryPolicy;
		this.recovery = recovery;
		this.backOff = new ReplacementBackOff(recovery);
		this.clock = clock;
		this.status = new WatchStatus(null, Duration.ZERO, clock, (status, previous, next, cause) -> {
		}, availabilitySamples);
		this.current = new Generation(List.of(), RelistReason.INITIAL);
		this.status.observed().contents(new WatchContents() {

			@Override
			public int cacheSize() {
				return NamespaceSelectorWatch.this.current.informer.getStore().list().size();
			}

			@Override
			public @Nullable String lastResourceVersion() {
				return NamespaceSelectorWatch.this.current.informer.lastSyncResourceVersion();
			}

		});
	}

	public String selector() {
		return this.selector;
	}

	/**
	 * Return the status of the watch on Namespaces: its cache size is the number of
	 * namespaces matching.
	 * @return the status
	 */
	public Watch status() {
		return this.status;
	}

	/**
	 * Add a member, starting the watch on first use.
	 * @param member the member
	 * @return a future that completes, once the namespaces have been listed, with the
	 * namespaces matching then, which the member has been told of as joined
	 */
	CompletableFuture<Set<String>> add(Member member) {
		CompletableFuture<Void> listed;
		synchronized (this) {
			this.members.add(member);
			if (this.started == null) {
				this.started = this.current.informer.start().toCompletableFuture();
			}
			listed = this.started;
		}
		return listed.thenApply((ignored) -> {
			synchronized (this) {
				// fabric8 updates its store before it calls the handler: a namespace
				// gone from the store is left (or will be) by onDelete
				Set<String> names = new TreeSet<>(this.current.informer.getStore().listKeys());
				if (this.members.contains(member)) {
					names.forEach((name) -> member.namespaceJoined(name, "labels match the selector"));
				}
				return names;
			}
		});
	}

	/**
	 * Remove a member; the watch stops with the last one.
	 * @param member the member
	 * @return whether no member remains
	 */
	synchronized boolean remove(Member member) {
		this.members.remove(member);
		return this.members.isEmpty();
	}

	synchronized void stop() {
		this.stopped = true;
		this.current.informer.stop();
		this.status.post(new WatchInput.Stopped());
	}

	/**
	 * Sample the watch into its status and replace a fabric8 informer that no longer
	 * works. Every member's informer is sampled; only the first member's sample counts,
	 * so that the availability window has one sample per period.
	 * @param member the member whose informer is sampled
	 */
	public void sample(Member member) {
		Iterator<Member> members = this.members.iterator();
		if (this.stopped || !members.hasNext() || members.next() != member) {
			// the iterator reads one snapshot: a member leaving meanwhile cannot break it
			return;
		}
		Generation generation = this.current;
		this.status.post(new WatchInput.Sampled(generation.informer.isWatching(),
				generation.informer.lastSyncResourceVersion()));
		checkRecovery(generation);
	}

	private void checkRecovery(Generation generation) {
		RecoveryCheck.Diagnosis diagnosis = RecoveryCheck.diagnose(this.status, this.status::availability,
				new RecoveryCheck.Source(generation.informer.isRunning(), generation.listing, generation.listedAt),
				this.clock.instant(), this.recovery);
		switch (diagnosis.outcome()) {
			case REPLACE -> replace(generation, diagnosis.reason(), diagnosis.why());
			case HEALTHY -> healthy();
			case NOTHING -> {
			}
		}
	}

	private synchronized void healthy() {
		this.backOff.reset();
		this.nextReplacementAt = null;
	}

	/**
	 * Stop the current fabric8 informer and start one seeded with the namespaces it knew,
	 * unless a replacement came too recently (the backoff between replacements).
	 */
	private synchronized void replace(Generation generation, @Nullable RelistReason reason, String why) {
		Instant now = this.clock.instant();
		if (this.stopped || generation != this.current || reason == null
				|| (this.nextReplacementAt != null && now.isBefore(this.nextReplacementAt))) {
			return;
		}
		this.nextReplacementAt = now.plusMillis(this.backOff.nextDelay());
		logger.warn("Namespace watch of selector '" + this.selector + "': " + why + "; replacing it with a fresh "
				+ "informer, seeded with the " + generation.informer.getStore().list().size() + " namespaces known");
		List<Namespace> known = generation.informer.getStore().list();
		generation.informer.stop();
		this.status.post(new WatchInput.Replaced());
		Generation next = new Generation(known, reason);
		this.current = next;
		next.informer.start();
	}

	@Override
	public String toString() {
		return "NamespaceSelectorWatch[" + this.selector + "]";
	}

	/**
	 * One fabric8 informer on the selection's Namespaces; its callbacks count only while
	 * it is the current one.
	 */
	private final class Generation implements ResourceEventHandler<Namespace> {

		private final SharedIndexInformer<Namespace> informer;

		private volatile boolean listing;

		private volatile @Nullable Instant listedAt;

		private final ListTrigger trigger;

		Generation(List<Namespace> known, RelistReason trigger) {
			this.trigger = new ListTrigger(trigger);
			NamespaceSelectorWatch selection = NamespaceSelectorWatch.this;
			this.informer = selection.client.namespaces().withLabelSelector(selection.selector).runnableInformer(0);
			if (!known.isEmpty()) {
				this.informer.initialState(known.stream());
			}
			this.informer.addEventHandler(this);
			this.informer.exceptionHandler(this::retry);
		}

		private boolean isCurrent() {
			return NamespaceSelectorWatch.this.current == this && !NamespaceSelectorWatch.this.stopped;
		}

		private boolean retry(boolean isStarted, Throwable ex) {
			NamespaceSelectorWatch selection = NamespaceSelectorWatch.this;
			try {
				if (!isCurrent()) {
					return false;
				}
				this.trigger.failed(ex);
				selection.status.post(WatchInput.Failed.of(ex));
				// a replacement has not started, but the watch had synced before
				boolean retry = selection.retryPolicy.shouldRetry(isStarted || selection.status.isSynced(), ex);
				logger.warn("Namespace watch of selector '" + selection.selector + "': " + KubernetesErrors.describe(ex)
						+ (retry ? "; retrying with backoff" : "; not retrying"));
				if (!retry) {
					selection.status.post(new WatchInput.GaveUp("gave up", null));
				}
				return retry;
			}
			catch (Throwable unexpected) {
				// fabric8 wedges an informer whose exception handler throws: retry
				// instead
				logger.error("Namespace watch of selector '" + selection.selector
						+ "': handling an error failed; retrying anyway", unexpected);
				return true;
			}
		}

		@Override
		public void onBeforeList(String resourceVersion) {
			if (isCurrent()) {
				this.listing = true;
				NamespaceSelectorWatch.this.status.post(new WatchInput.ListStarted(this.trigger.next()));
			}
		}

		@Override
		public void onList(String resourceVersion, boolean remainedEmpty) {
			if (isCurrent()) {
				this.listing = false;
				this.listedAt = NamespaceSelectorWatch.this.clock.instant();
				this.trigger.listed();
				NamespaceSelectorWatch.this.status
					.post(new WatchInput.ListCompleted(this.informer.getStore().list().size()));
			}
		}

		@Override
		public void onAdd(Namespace namespace) {
			synchronized (NamespaceSelectorWatch.this) {
				if (isCurrent()) {
					String name = namespace.getMetadata().getName();
					NamespaceSelectorWatch.this.members
						.forEach((member) -> member.namespaceJoined(name, "labels match the selector"));
				}
			}
		}

		@Override
		public void onUpdate(Namespace oldNamespace, Namespace newNamespace) {
			// still matching: the server reports a namespace that stops matching as
			// deleted
		}

		@Override
		public void onDelete(Namespace namespace, boolean deletedFinalStateUnknown) {
			synchronized (NamespaceSelectorWatch.this) {
				if (isCurrent()) {
					String name = namespace.getMetadata().getName();
					String cause = (namespace.getMetadata().getDeletionTimestamp() != null) ? "namespace deleted"
							: deletedFinalStateUnknown ? "no longer matches the selector (noticed by a relist)"
									: "labels no longer match the selector, or namespace deleted";
					NamespaceSelectorWatch.this.members.forEach((member) -> member.namespaceLeft(name, cause));
				}
			}
		}

	}

	/**
	 * An informer told of the namespaces joining and leaving a selection.
	 */
	public interface Member {

		void namespaceJoined(String namespace, String cause);

		void namespaceLeft(String namespace, String cause);

	}

}
