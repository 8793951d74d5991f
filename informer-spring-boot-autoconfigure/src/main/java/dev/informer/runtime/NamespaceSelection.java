package dev.informer.runtime;

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

import dev.informer.watch.KubernetesErrors;

/**
 * One watch on Namespaces with a label selector applied by the API server, shared by
 * every informer declared with that {@code namespace-selector}: it tells each of them
 * which namespaces join (start matching: created or labelled) and leave (stop matching:
 * unlabelled, which the server reports as a deletion from the selection, or deleted).
 * <p>
 * Members are told under this selection's lock, so that a member's first namespaces
 * (those matching when it joined) and the changes after them reach it in order.
 */
final class NamespaceSelection implements ResourceEventHandler<Namespace> {

	private static final Log logger = LogFactory.getLog(NamespaceSelection.class);

	private final String selector;

	private final SharedIndexInformer<Namespace> informer;

	private final List<Member> members = new CopyOnWriteArrayList<>();

	private @Nullable CompletableFuture<Void> started;

	NamespaceSelection(KubernetesClient client, String selector, RetryPolicy retryPolicy) {
		this.selector = selector;
		this.informer = client.namespaces().withLabelSelector(selector).runnableInformer(0);
		this.informer.addEventHandler(this);
		this.informer.exceptionHandler((isStarted, ex) -> {
			boolean retry = retryPolicy.shouldRetry(isStarted, ex);
			logger.warn("Namespace watch of selector '" + selector + "': " + KubernetesErrors.describe(ex)
					+ (retry ? "; retrying with backoff" : "; not retrying"));
			return retry;
		});
	}

	String selector() {
		return this.selector;
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
				this.started = this.informer.start().toCompletableFuture();
			}
			listed = this.started;
		}
		return listed.thenApply((ignored) -> {
			synchronized (this) {
				// fabric8 updates its store before it calls the handler: a namespace
				// gone from the store is left (or will be) by onDelete
				Set<String> names = new TreeSet<>(this.informer.getStore().listKeys());
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

	void stop() {
		this.informer.stop();
	}

	@Override
	public synchronized void onAdd(Namespace namespace) {
		String name = namespace.getMetadata().getName();
		this.members.forEach((member) -> member.namespaceJoined(name, "labels match the selector"));
	}

	@Override
	public void onUpdate(Namespace oldNamespace, Namespace newNamespace) {
		// still matching: the server reports a namespace that stops matching as deleted
	}

	@Override
	public synchronized void onDelete(Namespace namespace, boolean deletedFinalStateUnknown) {
		String name = namespace.getMetadata().getName();
		String cause = (namespace.getMetadata().getDeletionTimestamp() != null) ? "namespace deleted"
				: deletedFinalStateUnknown ? "no longer matches the selector (noticed by a relist)"
						: "labels no longer match the selector, or namespace deleted";
		this.members.forEach((member) -> member.namespaceLeft(name, cause));
	}

	@Override
	public String toString() {
		return "NamespaceSelection[" + this.selector + "]";
	}

	/**
	 * An informer told of the namespaces joining and leaving a selection.
	 */
	interface Member {

		void namespaceJoined(String namespace, String cause);

		void namespaceLeft(String namespace, String cause);

	}

}
