package dev.informer.core;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;

/**
 * One fabric8 informer behind a {@link ResourceInformer}: the whole informer, or one of its
 * namespaces. Turns fabric8's callbacks into events and status.
 *
 * @param <T> the resource type
 */
final class NamespaceInformer<T extends HasMetadata> implements ResourceEventHandler<T>, ExceptionHandler {

	private static final Log logger = LogFactory.getLog(ResourceInformer.class);

	private final ResourceInformer<T> owner;

	private final InformerDefinition<T> definition;

	private final @Nullable String namespace;

	private final WatchStatus status;

	private final CompletableFuture<Void> synced = new CompletableFuture<>();

	private volatile @Nullable SharedIndexInformer<T> informer;

	private volatile @Nullable CachingItemStore<T> store;

	private volatile boolean closed;

	NamespaceInformer(ResourceInformer<T> owner, @Nullable String namespace, Clock clock) {
		this.owner = owner;
		this.definition = owner.getDefinition();
		this.namespace = namespace;
		this.status = new WatchStatus(namespace, clock);
	}

	@Nullable String getNamespace() {
		return this.namespace;
	}

	WatchStatus getStatus() {
		return this.status;
	}

	CompletableFuture<Void> synced() {
		return this.synced;
	}

	@Nullable CachingItemStore<T> store() {
		return this.store;
	}

	@Nullable SharedIndexInformer<T> informer() {
		return this.informer;
	}

	CompletableFuture<Void> start(KubernetesClient client, List<InformerCustomizer> customizers) {
		SharedIndexInformer<T> created = createInformer(client);
		List<Consumer<? super T>> transforms = new ArrayList<>();
		Spec spec = new Spec(created, transforms);
		for (InformerCustomizer customizer : customizers) {
			customizer.customize(spec);
		}
		CachingItemStore<T> cache = new CachingItemStore<>(this.definition.getDeclaration().isStripManagedFields(),
				transforms);
		created.itemStore(cache);
		created.exceptionHandler(this);
		created.addEventHandler(this);
		this.store = cache;
		this.informer = created;
		created.start().whenComplete((result, ex) -> {
			if (ex != null) {
				this.status.transition(InformerState.FAILED);
				this.synced.completeExceptionally(KubernetesErrors.unwrap(ex));
			}
		});
		return this.synced;
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private SharedIndexInformer<T> createInformer(KubernetesClient client) {
		MixedOperation<T, ?, ?> operation = this.definition.isGeneric()
				? (MixedOperation) client.genericKubernetesResources(this.definition.toContext())
				: client.resources(this.definition.getResourceClass());
		FilterWatchListDeletable<T, ?, ?> filtered;
		if (this.namespace != null) {
			filtered = operation.inNamespace(this.namespace);
		}
		else if (this.definition.isNamespaced()) {
			filtered = operation.inAnyNamespace();
		}
		else {
			filtered = operation;
		}
		InformerDeclaration declaration = this.definition.getDeclaration();
		if (declaration.getLabelSelector() != null) {
			filtered = filtered.withLabelSelector(declaration.getLabelSelector());
		}
		if (declaration.getFieldSelector() != null) {
			for (Selectors.FieldRequirement requirement : Selectors.parseFieldSelector(declaration.getFieldSelector())) {
				filtered = requirement.equal() ? filtered.withField(requirement.field(), requirement.value())
						: filtered.withoutField(requirement.field(), requirement.value());
			}
		}
		Long limit = (declaration.getListPageSize() > 0) ? declaration.getListPageSize() : null;
		return filtered.withLimit(limit).runnableInformer(declaration.getResyncPeriod().toMillis());
	}

	void stop() {
		this.closed = true;
		SharedIndexInformer<T> current = this.informer;
		if (current != null) {
			current.stop();
		}
		this.status.transition(InformerState.STOPPED);
		this.synced.cancel(false);
	}

	@Override
	public void onBeforeList(String resourceVersion) {
		this.status.listStarted();
	}

	@Override
	public void onList(String resourceVersion, boolean remainedEmpty) {
		if (this.closed) {
			return;
		}
		CachingItemStore<T> cache = this.store;
		if (this.status.listCompleted((cache != null) ? cache.size() : 0)) {
			this.synced.complete(null);
			this.owner.namespaceSynced();
		}
	}

	@Override
	public void onAdd(T resource) {
		deliver("added", new ResourceAddedEvent<>(this.definition.getName(), this.definition.getResourceClass(),
				resource));
	}

	@Override
	public void onUpdate(T oldResource, T newResource) {
		ResourceUpdatedEvent<T> event = new ResourceUpdatedEvent<>(this.definition.getName(),
				this.definition.getResourceClass(), oldResource, newResource);
		deliver(event.isResync() ? "resync" : "updated", event);
	}

	@Override
	public void onDelete(T resource, boolean deletedFinalStateUnknown) {
		deliver("deleted", new ResourceDeletedEvent<>(this.definition.getName(), this.definition.getResourceClass(),
				resource, deletedFinalStateUnknown));
	}

	private void deliver(String type, ResourceEvent<T> event) {
		if (this.closed) {
			return;
		}
		int failures = this.owner.getPublisher().publish(event);
		this.status.eventDelivered(type, failures);
	}

	@Override
	public boolean retryAfterException(boolean isStarted, Throwable ex) {
		try {
			if (this.closed) {
				return false;
			}
			this.status.errorOccurred(ex);
			boolean retry = this.owner.getRetryPolicy().shouldRetry(isStarted, ex);
			String where = (this.namespace != null) ? " in namespace " + this.namespace : "";
			if (retry) {
				logger.warn("Informer '" + this.definition.getName() + "'" + where + ": "
						+ describe(ex) + "; retrying with backoff");
			}
			else {
				logger.error("Informer '" + this.definition.getName() + "'" + where + ": " + describe(ex)
						+ "; not retrying");
			}
			return retry;
		}
		catch (Throwable unexpected) {
			// fabric8 wedges an informer whose exception handler throws: retry instead
			return true;
		}
	}

	private static String describe(Throwable ex) {
		int code = KubernetesErrors.httpCode(ex);
		return ((code != 0) ? "HTTP " + code + " " : "") + KubernetesErrors.reason(ex) + ": "
				+ KubernetesErrors.message(ex);
	}

	/**
	 * The view customizers get of this informer before it starts.
	 */
	private final class Spec implements InformerSpec<T> {

		private final SharedIndexInformer<T> informer;

		private final List<Consumer<? super T>> transforms;

		Spec(SharedIndexInformer<T> informer, List<Consumer<? super T>> transforms) {
			this.informer = informer;
			this.transforms = transforms;
		}

		@Override
		public InformerDefinition<T> getDefinition() {
			return NamespaceInformer.this.definition;
		}

		@Override
		public @Nullable String getNamespace() {
			return NamespaceInformer.this.namespace;
		}

		@Override
		public SharedIndexInformer<T> getInformer() {
			return this.informer;
		}

		@Override
		public void addTransform(Consumer<? super T> transform) {
			this.transforms.add(transform);
		}

	}

}
