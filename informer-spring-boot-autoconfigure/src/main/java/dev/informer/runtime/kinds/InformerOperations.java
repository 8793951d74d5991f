package dev.informer.runtime.kinds;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListMeta;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.PartialObjectMetadataList;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.internal.HasMetadataOperationsImpl;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.impl.BaseClient;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.jspecify.annotations.Nullable;

import dev.informer.CacheMode;
import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.watch.ResourceVersions;

/**
 * The fabric8 operation an informer lists and watches through: its kind's typed or
 * generic operation, or for a metadata-only informer one that asks the API server for
 * {@link PartialObjectMetadata}; its objects are decoded by an
 * {@link InformerSerialization}.
 * <p>
 * fabric8 has no metadata-only informer, and neither an {@code Accept} header, nor
 * {@link Config#getWatchList() watch-list}, nor a serialization can be set per operation.
 * They are therefore set on a client derived for the informer: it shares the
 * application's HTTP client (connections, authentication, interceptors), adds the
 * {@code Accept} header of the API server's metadata representation to its own requests
 * only, carries a copy of the configuration with watch-list on, and decodes with the
 * informer's serialization, and reports what arrives on its watch connections to the
 * informer's {@link WatchConnection}. The application's client is never changed, and the
 * derived one is never closed: closing it would close the shared HTTP client.
 * <p>
 * One watch lists and watches that operation in its namespace (or all of them), with the
 * declared selectors, page size and resync period, and, for a sharded replica, its shard
 * range.
 *
 * @since 0.1.0
 */
public final class InformerOperations {

	static final String ACCEPT_METADATA_LIST = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";

	static final String ACCEPT_METADATA = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";

	private static final Interceptor METADATA_ONLY = new Interceptor() {

		@Override
		public void before(BasicBuilder builder, HttpRequest request, Interceptor.RequestTags tags) {
			URI uri = request.uri();
			String query = uri.getRawQuery();
			boolean watch = query != null && query.contains("watch=true");
			// a list gets a list of metadata, each watch event one object's metadata
			builder.setHeader("Accept", watch ? ACCEPT_METADATA : ACCEPT_METADATA_LIST);
		}

	};

	/**
	 * Asks for a gzip-compressed body on every request that is not a watch (the API
	 * server never compresses watches); {@link InformerSerialization} inflates it.
	 */
	private static final Interceptor COMPRESSED_LISTS = new Interceptor() {

		@Override
		public void before(BasicBuilder builder, HttpRequest request, Interceptor.RequestTags tags) {
			String query = request.uri().getRawQuery();
			if (query == null || !query.contains("watch=true")) {
				builder.setHeader("Accept-Encoding", "gzip");
			}
		}

	};

	private InformerOperations() {
	}

	/**
	 * Return the operation to list and watch what the definition declares.
	 * @param <T> the resource type
	 * @param client the application's client
	 * @param definition what to watch
	 * @param watchList whether the informer gets its initial state from a watch-list
	 * @return the operation, not yet filtered by namespace or selectors
	 */
	public static <T extends HasMetadata> MixedOperation<T, ?, ?> of(KubernetesClient client,
			InformerDefinition<T> definition, boolean watchList) {
		return of(client, definition, watchList, null, UndecodableObjects.NONE);
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static <T extends HasMetadata> MixedOperation<T, ?, ?> of(KubernetesClient client,
			InformerDefinition<T> definition, boolean watchList, @Nullable WatchConnection connection,
			UndecodableObjects objects) {
		boolean metadataOnly = definition.getDeclaration().getCache() == CacheMode.METADATA;
		KubernetesClient derived = derive(client, definition, metadataOnly, watchList, connection, objects);
		if (metadataOnly) {
			return (MixedOperation) new HasMetadataOperationsImpl<>(derived, context(definition),
					PartialObjectMetadata.class, MetadataList.class);
		}
		if (definition.isGeneric()) {
			return (MixedOperation) derived.genericKubernetesResources(context(definition));
		}
		return derived.resources(definition.getResourceClass());
	}

	/**
	 * Create the fabric8 informer of one watch, not started.
	 * @param <T> the resource type
	 * @param client the application's client
	 * @param definition what to watch
	 * @param namespace the watch's namespace, {@code null} for all namespaces or cluster
	 * scope
	 * @param watchList whether the informer gets its initial state from a watch-list
	 * @param shardSelector the shard range this replica lists and watches, or
	 * {@code null} for every object
	 * @param connection told of what arrives on the informer's watch connections
	 * @param objects told about objects that do not decode, which are skipped (not with a
	 * watch-list, whose initial events a skipped object would end early)
	 * @return the informer
	 */
	public static <T extends HasMetadata> SharedIndexInformer<T> informer(KubernetesClient client,
			InformerDefinition<T> definition, @Nullable String namespace, boolean watchList,
			@Nullable String shardSelector, WatchConnection connection, UndecodableObjects objects) {
		FilterWatchListDeletable<T, ?, ?> filtered = forWatch(client, definition, namespace, watchList, connection,
				watchList ? UndecodableObjects.NONE : objects);
		if (shardSelector != null) {
			filtered = filtered.withShardSelector(shardSelector);
		}
		InformerDeclaration declaration = definition.getDeclaration();
		Long limit = (declaration.getListPageSize() > 0) ? declaration.getListPageSize() : null;
		return filtered.withLimit(limit).runnableInformer(declaration.getResyncPeriod().toMillis());
	}

	/**
	 * Return whether the API server filters the lists of one watch by shard selector: it
	 * then says so in the list's metadata. One request for at most one object.
	 * @param client the application's client
	 * @param definition what to watch
	 * @param namespace the watch's namespace, {@code null} for all namespaces or cluster
	 * scope
	 * @param shardSelector a shard selector to ask with
	 * @return whether shard selectors are served
	 */
	public static boolean servesShardSelectors(KubernetesClient client, InformerDefinition<?> definition,
			@Nullable String namespace, String shardSelector) {
		Object list = forWatch(client, definition, namespace, definition.getDeclaration().isWatchList(), null,
				UndecodableObjects.NONE)
			.withShardSelector(shardSelector)
			.list(new ListOptionsBuilder().withLimit(1L).build());
		ListMeta metadata = ((KubernetesResourceList<?>) list).getMetadata();
		return metadata != null && metadata.getShardInfo() != null;
	}

	/**
	 * Read the API server's current resourceVersion for what one watch watches: a
	 * consistent list (no resourceVersion given) of at most one object, with the watch's
	 * selectors, so it needs no permission the watch does not have.
	 * @param client the application's client
	 * @param definition what is watched
	 * @param namespace the watch's namespace, {@code null} for all namespaces or cluster
	 * scope
	 * @return the list's resourceVersion, {@code null} if the server gave none
	 */
	public static @Nullable String currentResourceVersion(KubernetesClient client, InformerDefinition<?> definition,
			@Nullable String namespace) {
		// the one object listed may not decode: only the list's version is wanted
		Object list = forWatch(client, definition, namespace, false, null, new CatchUpObjects((key) -> null))
			.list(new ListOptionsBuilder().withLimit(1L).build());
		ListMeta metadata = ((KubernetesResourceList<?>) list).getMetadata();
		return (metadata != null) ? metadata.getResourceVersion() : null;
	}

	/**
	 * Collect the objects deleted after {@code from}, of one shard range or all: a watch
	 * (with the shard selector, if any) from that resourceVersion, which the API server
	 * answers from its watch cache with every change since, closed once a change at
	 * {@code until} or later arrives, the watch ends, or {@code bound} passes. Completes
	 * exceptionally when the API server refuses ({@code 410 Gone}: {@code from} is older
	 * than its watch cache keeps).
	 * @param <T> the resource type
	 * @param client the application's client
	 * @param definition what is watched
	 * @param namespace the watch's namespace, {@code null} for all namespaces or cluster
	 * scope
	 * @param shardSelector the range, or {@code null} for every object the watch sees
	 * @param from the resourceVersion to start after
	 * @param until the resourceVersion to reach
	 * @param bound how long to wait at most
	 * @param cached the caller's cache by key, for the last decoded state of an object
	 * deleted in a version that does not decode
	 * @return the deleted objects, each in its last state
	 */
	public static <T extends HasMetadata> CompletableFuture<List<T>> deletedSince(KubernetesClient client,
			InformerDefinition<T> definition, @Nullable String namespace, @Nullable String shardSelector, String from,
			String until, Duration bound, Function<String, ? extends @Nullable HasMetadata> cached) {
		CompletableFuture<List<T>> result = new CompletableFuture<>();
		List<T> deleted = new ArrayList<>();
		Watcher<T> watcher = new Watcher<>() {

			@Override
			public void eventReceived(Action action, T resource) {
				List<T> reached = null;
				synchronized (deleted) {
					if (action == Action.DELETED) {
						deleted.add(resource);
					}
					if (ResourceVersions.isAtLeast(resource.getMetadata().getResourceVersion(), until)) {
						reached = List.copyOf(deleted);
					}
				}
				if (reached != null) {
					result.complete(reached);
				}
			}

			@Override
			public void onClose(WatcherException cause) {
				result.completeExceptionally(cause);
			}

			@Override
			public void onClose() {
				synchronized (deleted) {
					result.complete(List.copyOf(deleted));
				}
			}

		};
		Watch watch;
		try {
			FilterWatchListDeletable<T, ?, ?> filtered = forWatch(client, definition, namespace, false, null,
					new CatchUpObjects(cached));
			if (shardSelector != null) {
				filtered = filtered.withShardSelector(shardSelector);
			}
			watch = filtered.watch(
					new ListOptionsBuilder().withResourceVersion(from).withAllowWatchBookmarks(true).build(), watcher);
		}
		catch (KubernetesClientException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		CompletableFuture.delayedExecutor(bound.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
			synchronized (deleted) {
				result.complete(List.copyOf(deleted));
			}
		});
		return result.whenComplete((ignored, ex) -> watch.close());
	}

	private static <T extends HasMetadata> FilterWatchListDeletable<T, ?, ?> forWatch(KubernetesClient client,
			InformerDefinition<T> definition, @Nullable String namespace, boolean watchList,
			@Nullable WatchConnection connection, UndecodableObjects objects) {
		MixedOperation<T, ?, ?> operation = of(client, definition, watchList, connection, objects);
		FilterWatchListDeletable<T, ?, ?> filtered;
		if (namespace != null) {
			filtered = operation.inNamespace(namespace);
		}
		else if (definition.isNamespaced()) {
			filtered = operation.inAnyNamespace();
		}
		else {
			filtered = operation;
		}
		InformerDeclaration declaration = definition.getDeclaration();
		if (declaration.getLabelSelector() != null) {
			filtered = filtered.withLabelSelector(declaration.getLabelSelector());
		}
		if (declaration.getFieldSelector() != null) {
			// the whole selector as one key without a value, which fabric8 sends as it
			// is: its map by field would keep one requirement per field and not escape
			// values
			filtered = filtered.withField(declaration.getFieldSelectorQuery(), null);
		}
		return filtered;
	}

	private static KubernetesClient derive(KubernetesClient client, InformerDefinition<?> definition,
			boolean metadataOnly, boolean watchList, @Nullable WatchConnection connection, UndecodableObjects objects) {
		HttpClient httpClient = client.getHttpClient();
		boolean compressLists = definition.getDeclaration().isCompressLists();
		if (metadataOnly || compressLists) {
			HttpClient.DerivedClientBuilder builder = httpClient.newBuilder();
			if (metadataOnly) {
				builder.addOrReplaceInterceptor("informer-metadata-only", METADATA_ONLY);
			}
			if (compressLists) {
				builder.addOrReplaceInterceptor("informer-compressed-lists", COMPRESSED_LISTS);
			}
			httpClient = builder.build();
		}
		if (connection != null) {
			httpClient = connection.wrap(httpClient);
		}
		Config config = client.getConfiguration();
		if (watchList) {
			config = new Config(config);
			config.setWatchList(true);
		}
		BaseClient base = client.adapt(BaseClient.class);
		InformerSerialization serialization = metadataOnly
				? InformerSerialization.of(PartialObjectMetadata.class, "PartialObjectMetadata",
						definition.getDeclaration().isStripManagedFields())
				: InformerSerialization.of(definition.getResourceClass(), definition.getDeclaration().getKind(),
						definition.getDeclaration().isStripManagedFields());
		return new KubernetesClientImpl(httpClient, config, base::getExecutor, serialization.reporting(objects));
	}

	/**
	 * A {@link PartialObjectMetadataList} whose items are never {@code null}: the API
	 * server sends an empty one as {@code "items": null}, on which fabric8's list fails.
	 */
	static final class MetadataList extends PartialObjectMetadataList {

		private static final long serialVersionUID = 1L;

		@Override
		public List<PartialObjectMetadata> getItems() {
			List<PartialObjectMetadata> items = super.getItems();
			return (items != null) ? items : List.of();
		}

	}

	static ResourceDefinitionContext context(InformerDefinition<?> definition) {
		return new ResourceDefinitionContext.Builder().withGroup(definition.getDeclaration().getGroup())
			.withVersion(definition.getDeclaration().getVersion())
			.withKind(definition.getDeclaration().getKind())
			.withPlural(definition.getPlural())
			.withNamespaced(definition.isNamespaced())
			.build();
	}

}
