package dev.informer.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.InformerCustomizer;
import dev.informer.event.InformerNamespaceChangedEvent;
import dev.informer.runtime.namespaces.NamespaceSelectorWatch;
import dev.informer.runtime.namespaces.NamespaceSelectorWatches;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchError;
import dev.informer.watch.WatchSetObserver;

/**
 * The namespaces of an informer declared with a {@code namespace-selector}: a
 * {@link NamespaceInformer} is added when a namespace joins and removed when it leaves. A
 * namespace that leaves first delivers a delete, flagged as having left the selection,
 * for each object its listeners have seen, then stops; a namespace that joins again
 * meanwhile starts only once that is done, so that its adds never overtake those deletes.
 *
 * @param <T> the resource type
 */
final class SelectedNamespaces<T extends HasMetadata> implements NamespaceSelectorWatch.Member {

	private static final Log logger = LogFactory.getLog(SelectedNamespaces.class);

	private final ResourceInformer<T> owner;

	private final List<NamespaceInformer<T>> parts;

	private final List<WatchSetObserver> observers;

	SelectedNamespaces(ResourceInformer<T> owner, List<NamespaceInformer<T>> parts, List<WatchSetObserver> observers) {
		this.owner = owner;
		this.parts = parts;
		this.observers = observers;
	}

	/** Namespaces leaving: done when their last delete has been delivered. */
	private final Map<String, LeavingNamespace<T>> leaving = new ConcurrentHashMap<>();

	/** The namespaces matching at start, and whether startup still waits for each. */
	private final Map<NamespaceInformer<T>, CompletableFuture<Void>> startupWaits = new ConcurrentHashMap<>();

	private @Nullable NamespaceSelectorWatches selections;

	private volatile @Nullable NamespaceSelectorWatch namespaceSelection;

	private @Nullable String selector;

	private @Nullable KubernetesClient client;

	private List<InformerCustomizer> customizers = List.of();

	private @Nullable Executor executor;

	private ListPermits permits = ListPermits.UNLIMITED;

	private volatile boolean running;

	private volatile boolean startupSynced;

	synchronized CompletableFuture<Void> start(NamespaceSelectorWatches selections, String selector,
			KubernetesClient client, List<InformerCustomizer> customizers, Executor executor, ListPermits permits) {
		this.selections = selections;
		this.selector = selector;
		this.client = client;
		this.customizers = List.copyOf(customizers);
		this.executor = executor;
		this.permits = permits;
		this.running = true;
		this.startupSynced = false;
		this.startupWaits.clear();
		CompletableFuture<Void> result = new CompletableFuture<>();
		NamespaceSelectorWatch selection = selections.selection(selector, this.owner.declaredRetryPolicy(),
				this.owner.getRecovery(), this.owner.clock());
		this.namespaceSelection = selection;
		selections.add(selection, this).thenCompose(this::syncedAtStart).whenComplete((ignored, ex) -> {
			if (ex != null) {
				result.completeExceptionally(ex);
			}
			else {
				this.startupSynced = true;
				this.owner.publishSynced();
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
		for (NamespaceInformer<T> part : this.parts) {
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
		CompletableFuture<Void> all = new CompletableFuture<>();
		synced.forEach((future) -> future.whenComplete((ignored, ex) -> {
			if (ex != null) {
				all.completeExceptionally(ex);
			}
		}));
		CompletableFuture.allOf(synced.toArray(CompletableFuture[]::new)).thenRun(() -> all.complete(null));
		return all;
	}

	boolean isStartupSynced() {
		return this.startupSynced;
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
				logger.warn("Informer '" + this.owner.getName() + "': namespace '" + part.getNamespace()
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
		NamespaceInformer<T> part;
		LeavingNamespace<T> previous;
		synchronized (this) {
			if (!this.running || find(namespace) != null) {
				return;
			}
			part = new NamespaceInformer<>(this.owner, namespace, this.owner.clock());
			this.parts.add(part);
			previous = this.leaving.get(namespace);
		}
		this.owner.getPublisher()
			.publish(new InformerNamespaceChangedEvent(this.owner.getName(), namespace,
					InformerNamespaceChangedEvent.Change.JOINED, cause));
		if (previous == null) {
			startPart(part);
		}
		else {
			previous.done().whenComplete((ignored, ex) -> startPart(part));
		}
	}

	private synchronized void startPart(NamespaceInformer<T> part) {
		KubernetesClient client = this.client;
		Executor executor = this.executor;
		if (this.running && client != null && executor != null && this.parts.contains(part)) {
			// only now: the meters of a previous watch of this namespace are removed
			this.observers.forEach((observer) -> observer.watchAdded(this.owner, part.getStatus()));
			part.start(client, this.customizers, executor, this.permits);
		}
	}

	@Override
	public void namespaceLeft(String namespace, String cause) {
		NamespaceInformer<T> part;
		LeavingNamespace<T> leaving;
		synchronized (this) {
			part = find(namespace);
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
		NamespaceInformer<T> part = leaving.part();
		String namespace = String.valueOf(part.getNamespace());
		part.leave(() -> this.owner.getPublisher()
			.publish(new InformerNamespaceChangedEvent(this.owner.getName(), namespace,
					InformerNamespaceChangedEvent.Change.LEFT, cause)))
			.whenComplete((ignored, ex) -> {
				this.leaving.remove(namespace, leaving);
				this.observers.forEach((observer) -> observer.watchRemoved(this.owner, part.getStatus()));
				leaving.done().complete(null);
			});
	}

	private @Nullable NamespaceInformer<T> find(String namespace) {
		for (NamespaceInformer<T> part : this.parts) {
			if (namespace.equals(part.getNamespace())) {
				return part;
			}
		}
		return null;
	}

	void stop() {
		List<NamespaceInformer<T>> removed;
		synchronized (this) {
			if (!this.running) {
				return;
			}
			this.running = false;
			removed = new ArrayList<>(this.parts);
			this.leaving.values().forEach((leaving) -> removed.add(leaving.part()));
			this.leaving.values().forEach((leaving) -> leaving.done().complete(null));
			this.leaving.clear();
			this.parts.clear();
		}
		// outside this lock: the selection tells its members under its own
		NamespaceSelectorWatches selections = this.selections;
		String selector = this.selector;
		if (selections != null && selector != null) {
			selections.remove(selector, this);
		}
		for (NamespaceInformer<T> part : removed) {
			part.stop();
			this.observers.forEach((observer) -> observer.watchRemoved(this.owner, part.getStatus()));
		}
	}

	private record LeavingNamespace<T extends HasMetadata>(NamespaceInformer<T> part, CompletableFuture<Void> done) {

	}

}
