package dev.informer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * What to watch, as a user declared it: the kind, where, which objects and how often to
 * resync. Checked on construction (the builder's
 * {@link InformerDeclarationBuilder#build()}) by the {@link DeclarationRules}; resolved
 * against the API server when its informer is created.
 *
 * @since 0.1.0
 */
public final class InformerDeclaration {

	private final String name;

	private final String apiVersion;

	private final String kind;

	private final @Nullable String type;

	private final List<String> namespaces;

	private final @Nullable String labelSelector;

	private final @Nullable String fieldSelector;

	private final @Nullable String namespaceSelector;

	private final Duration resyncPeriod;

	private final long listPageSize;

	private final boolean stripManagedFields;

	private final CacheMode cache;

	private final boolean watchList;

	private final boolean compressLists;

	private final ChangeDeclarations changes;

	InformerDeclaration(InformerDeclarationBuilder builder) {
		this.name = builder.name;
		this.apiVersion = (builder.apiVersion != null) ? builder.apiVersion.trim() : "";
		this.kind = (builder.kind != null) ? builder.kind.trim() : "";
		this.type = StringUtils.hasText(builder.type) ? builder.type.trim() : null;
		this.namespaces = Collections.unmodifiableList(new ArrayList<>(builder.namespaces));
		this.labelSelector = StringUtils.hasText(builder.labelSelector) ? builder.labelSelector.trim() : null;
		this.fieldSelector = StringUtils.hasText(builder.fieldSelector) ? builder.fieldSelector.trim() : null;
		this.namespaceSelector = StringUtils.hasText(builder.namespaceSelector) ? builder.namespaceSelector.trim()
				: null;
		this.resyncPeriod = builder.resyncPeriod;
		this.listPageSize = builder.listPageSize;
		this.stripManagedFields = builder.stripManagedFields;
		this.cache = builder.cache;
		this.watchList = builder.watchList;
		this.compressLists = builder.compressLists;
		DeclarationRules.check(this, builder.apiVersion, builder.kind);
		this.changes = ChangeDeclarations.parse(this.name, this.cache, builder.onChange, builder.prune,
				builder.indexes);
	}

	/**
	 * Start a declaration.
	 * @param name the informer's name, used in events, health and metrics
	 * @return a builder
	 */
	public static InformerDeclarationBuilder builder(String name) {
		return new InformerDeclarationBuilder(name);
	}

	/**
	 * Return the informer's name.
	 * @return the name
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Return the API version, for example {@code v1} or {@code apps/v1}.
	 * @return the API version
	 */
	public String getApiVersion() {
		return this.apiVersion;
	}

	/**
	 * Return the API group, empty for the core group.
	 * @return the group
	 */
	public String getGroup() {
		int slash = this.apiVersion.indexOf('/');
		return (slash < 0) ? "" : this.apiVersion.substring(0, slash);
	}

	/**
	 * Return the version part of the API version.
	 * @return the version
	 */
	public String getVersion() {
		int slash = this.apiVersion.indexOf('/');
		return (slash < 0) ? this.apiVersion : this.apiVersion.substring(slash + 1);
	}

	/**
	 * Return the kind.
	 * @return the kind
	 */
	public String getKind() {
		return this.kind;
	}

	/**
	 * Return the fully qualified name of the Java class to deserialize into, if declared.
	 * @return the class name or {@code null}
	 */
	public @Nullable String getType() {
		return this.type;
	}

	/**
	 * Return the namespaces to watch; empty for all namespaces (or a cluster-scoped
	 * kind).
	 * @return the namespaces
	 */
	public List<String> getNamespaces() {
		return this.namespaces;
	}

	/**
	 * Return the label selector.
	 * @return the label selector or {@code null}
	 */
	public @Nullable String getLabelSelector() {
		return this.labelSelector;
	}

	/**
	 * Return the field selector.
	 * @return the field selector or {@code null}
	 */
	public @Nullable String getFieldSelector() {
		return this.fieldSelector;
	}

	/**
	 * Return the label selector of the namespaces to watch: the informer then watches
	 * each namespace whose labels match it, starting and stopping watches as namespaces
	 * come and go. Exclusive with {@link #getNamespaces() namespaces}.
	 * @return the namespace selector or {@code null}
	 */
	public @Nullable String getNamespaceSelector() {
		return this.namespaceSelector;
	}

	/**
	 * Return the field selector as sent to the API server: every requirement, in the
	 * declared order and escaped as declared, without the blanks around fields and
	 * values.
	 * @return the field selector to send, or {@code null} when none was declared
	 */
	public @Nullable String getFieldSelectorQuery() {
		return (this.fieldSelector != null) ? Selectors.fieldSelectorQuery(this.fieldSelector) : null;
	}

	/**
	 * Return the resync period; zero disables resync.
	 * @return the resync period
	 */
	public Duration getResyncPeriod() {
		return this.resyncPeriod;
	}

	/**
	 * Return the page size of list requests; zero lists in one request.
	 * @return the page size
	 */
	public long getListPageSize() {
		return this.listPageSize;
	}

	/**
	 * Return whether {@code metadata.managedFields} is dropped from cached objects and
	 * events.
	 * @return whether managed fields are stripped
	 */
	public boolean isStripManagedFields() {
		return this.stripManagedFields;
	}

	/**
	 * Return what the informer lists, watches and caches of each object.
	 * @return the cache mode
	 */
	public CacheMode getCache() {
		return this.cache;
	}

	/**
	 * Return whether the informer gets its initial state from a watch-list (a watch with
	 * {@code sendInitialEvents=true}) instead of a list.
	 * @return whether to use a watch-list
	 */
	public boolean isWatchList() {
		return this.watchList;
	}

	/**
	 * Return whether the informer asks the API server for gzip-compressed lists.
	 * @return whether to compress lists
	 */
	public boolean isCompressLists() {
		return this.compressLists;
	}

	/**
	 * Return the {@code on-change} entries as declared; empty delivers every update.
	 * @return the entries
	 */
	public List<String> getOnChange() {
		return this.changes.onChange;
	}

	/**
	 * Return the paths {@code on-change} compares, its names expanded; empty delivers
	 * every update.
	 * @return the paths
	 */
	public List<ResourcePath> getChangePaths() {
		return this.changes.changePaths;
	}

	/**
	 * Return whether {@code on-change} lists {@link ChangeTrigger#GENERATION}.
	 * @return whether generation is compared
	 */
	public boolean isOnGenerationChange() {
		return this.changes.generation;
	}

	/**
	 * Return the paths removed from each object before it is cached and delivered.
	 * @return the paths
	 */
	public List<ResourcePath> getPrune() {
		return this.changes.prune;
	}

	/**
	 * Return the indexes of the cache by name.
	 * @return the path each index reads
	 */
	public Map<String, ResourcePath> getIndexes() {
		return this.changes.indexes;
	}

	@Override
	public String toString() {
		return "InformerDeclaration[" + this.name + ": " + this.apiVersion + "/" + this.kind + "]";
	}

}
