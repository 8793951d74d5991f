package dev.informer.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.event.InformerNamespaceChangedEvent;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.runtime.namespaces.NamespaceSelectorWatch;
import dev.informer.runtime.namespaces.NamespaceSelectorWatches;
import dev.informer.runtime.recovery.RetryPolicy;
import dev.informer.watch.KubernetesErrors;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchError;
import dev.informer.watch.WatchSetObserver;
import dev.informer.watch.WatchedInformer;

/**
 * The namespaces of an informer declared with a {@code namespace-selector}: a
 * {@link ResourceWatch} is added when a namespace joins and removed when it leaves. A
 * namespace that leaves first delivers a delete, flagged as having left the selection,
 * for each object its listeners have seen, then stops; a namespace that joins again
 * meanwhile starts only once that is done, so that its adds never overtake those deletes.
 * Deletes its replica gate kept back outlive its watch ({@link LeftNamespaces}); a
 * namespace that joins again takes them over.
 *
 * @param <T> the resource type
 */
final class SelectedNamespaces<T extends HasMetadata> implements NamespaceSelectorWatch.Member {

	private static final Log logger = LogFactory.getLog(SelectedNamespaces.class);

	private final WatchedInformer<T> informer;

	private final Function<String, ResourceWatch<T>> newWatch;

	private final InformerEventPublisher publisher;

	private final Runnable synced;

	private final WatchSet<T> parts;

	private final List<WatchSetObserver> observers;

	private final LeftNamespaces<T> left;

	/**
	 * Create the namespaces of an informer, none until it starts.
	 * @param informer the informer, as watch-set observers are told of it
	 * @param newWatch creates the watch of a namespace that joined; it starts later
	 * @param publisher where the informer's events go
	 * @param synced told once the namespaces matching at start have synced
	 * @param parts the informer's watches
	 * @param observers told of each watch added and removed
	 * @param left the deletes kept back for namespaces that left
	 */
	SelectedNamespaces(WatchedInformer<T> informer, Function<String, ResourceWatch<T>> newWatch,
			InformerEventPublisher publisher, Runnable synced, WatchSet<T> parts, List<WatchSetObserver> observers,
			LeftNamespaces<T> left) {
		this.informer = informer;
		this.newWatch = newWatch;
		this.publisher = publisher;
		this.synced = synced;
		this.parts = parts;
		this.observers = observers;
		this.left = left;
	}

	/** Namespaces leaving: done when their last delete has been delivered. */
	private final Map<String, LeavingNamespace<T>> leaving = new ConcurrentHashMap<>();

	/** The namespaces matching at start, and whether startup still waits for each. */
	private final Map<ResourceWatch<T>, CompletableFuture<Void>> startupWaits = new ConcurrentHashMap<>();

	private @Nullable NamespaceSelectorWatches selections;

	private volatile @Nullable NamespaceSelectorWatch namespaceSelection;

	private @Nullable String selector;

	private @Nullable WatchStart start;

	private volatile boolean running;

	private volatile boolean startupSynced;

	/**
	 * Start following the namespaces of a selector.
	 * @param selections the shared watches on Namespaces
	 * @param selection the watch of this informer's selector, from {@code selections}
	 * @param start what each namespace's watch starts with
	 * @return a future that completes when the namespaces matching at start have synced
	 */
	CompletableFuture<Void> start(NamespaceSelectorWatches selections, NamespaceSelectorWatch selection,
			WatchStart start) {
		synchronized (this) {
			this.selections = selections;
			this.selector = selection.selector();
			this.start = start;
			this.running = true;
			this.startupSynced = false;
			this.startupWaits.clear();
			this.namespaceSelection = selection;
		}
		CompletableFuture<Void> result = new CompletableFuture<>();
		// outside this lock, as in stop(): the selection tells its members of joining
		// namespaces under its own lock, and namespaceJoined takes this one; a selection
		// already listed tells this member on the calling thread
		selections.add(selection, this).thenCompose(this::syncedAtStart).whenComplete((ignored, ex) -> {
			if (ex != null) {
				result.completeExceptionally(ex);
			}
			else {
				this.startupSynced = true;
				this.synced.run();
				result.complete(null);
			}
		});
		return result;
	}

	/**
	 * The namespaces matching at start synced: one that left before it synced counts as
	 * synced, one that failed fails the start as a declared namespace does, and one whose
	 * list is forbidden ({@link #forbiddenAtStart()}) does not hold startup up.
	 */
	private CompletableFuture<Void> syncedAtStart(Set<String> namespaces) {
		List<CompletableFuture<Void>> synced = new ArrayList<>();
		for (ResourceWatch<T> part : this.parts.list()) {
			if (namespaces.contains(part.getNamespace())) {
				CompletableFuture<Void> partSynced = new CompletableFuture<>();
				this.startupWaits.put(part, partSynced);
				forbiddenAtStart();
				part.synced().whenComplete((ignored, ex) -> {
					if (ex == null || ex instanceof CancellationException) {
						partSynced.complete(null);
					}
					else {
						partSynced.completeExceptionally(ex);
					}
				});
				synced.add(partSynced);
			}
		}
		return Futures.allOrFirstFailure(synced);
	}

	/**
	 * Return the retry policy of the watches of the selected namespaces: a namespace is
	 * retried as a watch that lost access is once startup synced (the application runs,
	 * and the others are unaffected), and a namespace forbidden at startup is retried too
	 * (see {@link #forbiddenAtStart()}).
	 * @param declared the informer's declared policy
	 * @return the policy
	 */
	RetryPolicy retryPolicy(RetryPolicy declared) {
		return (started, ex) -> {
			if (this.startupSynced) {
				return declared.shouldRetry(true, ex);
			}
			int code = KubernetesErrors.httpCode(ex);
			if (!started && (code == 401 || code == 403)) {
				forbiddenAtStart();
				return true;
			}
			return declared.shouldRetry(started, ex);
		};
	}

	/**
	 * Stop waiting at startup for the namespaces whose list the API server forbids. A
	 * namespace chosen by label may match before its RoleBinding exists (both are created
	 * by whoever onboards a tenant, rarely at the same instant): failing startup for it,
	 * as {@code fail-on-forbidden} does for a declared namespace, would crash-loop every
	 * replica that restarts in between. The namespace is retried with backoff like one
	 * that joins later, its health says Forbidden, and it joins once allowed.
	 */
	void forbiddenAtStart() {
		this.startupWaits.forEach((part, waiting) -> {
			WatchError error = part.getStatus().getLastError();
			if (!waiting.isDone() && error != null && (error.httpCode() == 401 || error.httpCode() == 403)
					&& !part.getStatus().isSynced()) {
				logger.warn("Informer '" + this.informer.getName() + "': namespace '" + part.getNamespace()
						+ "' matches namespace-selector '" + this.selector + "' but listing there is refused (HTTP "
						+ error.httpCode() + " " + error.reason() + "); not failing startup for it: retrying with "
						+ "backoff, its health reports " + error.reason() + " until access is granted");
				waiting.complete(null);
			}
		});
	}

	/**
	 * Sample the shared watch on Namespaces, see {@link NamespaceSelectorWatch#sample}.
	 */
	void sample() {
		NamespaceSelectorWatch selection = this.namespaceSelection;
		if (this.running && selection != null) {
			selection.sample(this);
		}
	}

	/**
	 * Return the shared watch on Namespaces.
	 * @return its status, {@code null} before the first start
	 */
	@Nullable Watch namespaceWatch() {
		NamespaceSelectorWatch selection = this.namespaceSelection;
		return (selection != null) ? selection.status() : null;
	}

	@Override
	public void namespaceJoined(String namespace, String cause) {
		ResourceWatch<T> part;
		LeavingNamespace<T> previous;
		synchronized (this) {
			if (!this.running || this.parts.find(namespace) != null) {
				return;
			}
			part = this.newWatch.apply(namespace);
			this.parts.add(part);
			previous = this.leaving.get(namespace);
		}
		this.publisher.publish(new InformerNamespaceChangedEvent(this.informer.getName(), namespace,
				InformerNamespaceChangedEvent.Change.JOINED, cause));
		CompletableFuture<Void> leftBefore = (previous != null) ? previous.done()
				: CompletableFuture.completedFuture(null);
		leftBefore.thenCompose((ignored) -> this.left.rejoin(namespace))
			.whenComplete((kept, ex) -> startPart(namespace, part, kept));
	}

	/**
	 * Start the watch of a namespace that joined, taking over the deletes its previous
	 * watch kept back; if it does not start (it left again, or the informer stopped),
	 * they stay kept.
	 */
	private synchronized void startPart(String namespace, ResourceWatch<T> part, @Nullable Pipeline<T> kept) {
		WatchStart start = this.start;
		if (this.running && start != null && this.parts.contains(part)) {
			// only now: the meters of a previous watch of this namespace are removed
			this.observers.forEach((observer) -> observer.watchAdded(this.informer, part.getStatus()));
			part.start(start, kept);
		}
		else if (kept != null && this.running) {
			this.left.keep(namespace, kept);
		}
		else if (kept != null) {
			kept.close();
		}
	}

	@Override
	public void namespaceLeft(String namespace, String cause) {
		ResourceWatch<T> part;
		LeavingNamespace<T> leaving;
		synchronized (this) {
			part = this.parts.find(namespace);
			if (!this.running || part == null) {
				return;
			}
			this.parts.remove(part);
			LeavingNamespace<T> previous = this.leaving.get(namespace);
			leaving = new LeavingNamespace<>(part, new CompletableFuture<>());
			this.leaving.put(namespace, leaving);
			if (previous != null && !previous.done().isDone()) {
				// its start waits for the previous one: it has delivered nothing
				previous.done().whenComplete((ignored, ex) -> leave(leaving, cause));
				return;
			}
		}
		leave(leaving, cause);
	}

	private void leave(LeavingNamespace<T> leaving, String cause) {
		ResourceWatch<T> part = leaving.part();
		String namespace = String.valueOf(part.getNamespace());
		part.leave(() -> this.publisher.publish(new InformerNamespaceChangedEvent(this.informer.getName(), namespace,
				InformerNamespaceChangedEvent.Change.LEFT, cause)), (kept) -> this.left.keep(namespace, kept))
			.whenComplete((ignored, ex) -> {
				this.leaving.remove(namespace, leaving);
				this.observers.forEach((observer) -> observer.watchRemoved(this.informer, part.getStatus()));
				leaving.done().complete(null);
			});
	}

	void stop() {
		List<ResourceWatch<T>> removed;
		synchronized (this) {
			if (!this.running) {
				return;
			}
			this.running = false;
			removed = new ArrayList<>(this.parts.clear());
			this.leaving.values().forEach((leaving) -> removed.add(leaving.part()));
			this.leaving.values().forEach((leaving) -> leaving.done().complete(null));
			this.leaving.clear();
		}
		this.left.close();
		// outside this lock: the selection tells its members under its own
		NamespaceSelectorWatches selections = this.selections;
		String selector = this.selector;
		if (selections != null && selector != null) {
			selections.remove(selector, this);
		}
		for (ResourceWatch<T> part : removed) {
			part.stop();
			this.observers.forEach((observer) -> observer.watchRemoved(this.informer, part.getStatus()));
		}
	}

	private record LeavingNamespace<T extends HasMetadata>(ResourceWatch<T> part, CompletableFuture<Void> done) {

	}

}
