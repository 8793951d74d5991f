package dev.informer;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Builds an {@link InformerDeclaration}: each value as declared, checked together by
 * {@link #build()}.
 *
 * @since 0.1.0
 */
public final class InformerDeclarationBuilder {

	final String name;

	@Nullable String apiVersion;

	@Nullable String kind;

	@Nullable String type;

	List<String> namespaces = List.of();

	@Nullable String labelSelector;

	@Nullable String fieldSelector;

	@Nullable String namespaceSelector;

	Duration resyncPeriod = Duration.ZERO;

	long listPageSize;

	boolean stripManagedFields = true;

	CacheMode cache = CacheMode.FULL;

	boolean watchList;

	boolean compressLists = true;

	List<String> onChange = List.of();

	List<String> prune = List.of();

	Map<String, String> indexes = Map.of();

	InformerDeclarationBuilder(String name) {
		this.name = name;
	}

	/**
	 * Set the API version.
	 * @param apiVersion the API version, for example {@code apps/v1}
	 * @return this builder
	 */
	public InformerDeclarationBuilder apiVersion(@Nullable String apiVersion) {
		this.apiVersion = apiVersion;
		return this;
	}

	/**
	 * Set the kind.
	 * @param kind the kind, for example {@code ConfigMap}
	 * @return this builder
	 */
	public InformerDeclarationBuilder kind(@Nullable String kind) {
		this.kind = kind;
		return this;
	}

	/**
	 * Set the Java class to deserialize into.
	 * @param type a fully qualified class name of a {@code HasMetadata} type
	 * @return this builder
	 */
	public InformerDeclarationBuilder type(@Nullable String type) {
		this.type = type;
		return this;
	}

	/**
	 * Set the namespaces; empty for all.
	 * @param namespaces the namespaces
	 * @return this builder
	 */
	public InformerDeclarationBuilder namespaces(@Nullable List<String> namespaces) {
		this.namespaces = (namespaces != null) ? namespaces : List.of();
		return this;
	}

	/**
	 * Set the label selector.
	 * @param labelSelector the selector
	 * @return this builder
	 */
	public InformerDeclarationBuilder labelSelector(@Nullable String labelSelector) {
		this.labelSelector = labelSelector;
		return this;
	}

	/**
	 * Set the field selector.
	 * @param fieldSelector the selector
	 * @return this builder
	 */
	public InformerDeclarationBuilder fieldSelector(@Nullable String fieldSelector) {
		this.fieldSelector = fieldSelector;
		return this;
	}

	/**
	 * Set the label selector of the namespaces to watch.
	 * @param namespaceSelector the selector
	 * @return this builder
	 */
	public InformerDeclarationBuilder namespaceSelector(@Nullable String namespaceSelector) {
		this.namespaceSelector = namespaceSelector;
		return this;
	}

	/**
	 * Set the resync period.
	 * @param resyncPeriod the period, zero to disable
	 * @return this builder
	 */
	public InformerDeclarationBuilder resyncPeriod(Duration resyncPeriod) {
		this.resyncPeriod = resyncPeriod;
		return this;
	}

	/**
	 * Set the list page size.
	 * @param listPageSize the page size, zero for one request
	 * @return this builder
	 */
	public InformerDeclarationBuilder listPageSize(long listPageSize) {
		this.listPageSize = listPageSize;
		return this;
	}

	/**
	 * Set whether to strip {@code metadata.managedFields}.
	 * @param stripManagedFields whether to strip
	 * @return this builder
	 */
	public InformerDeclarationBuilder stripManagedFields(boolean stripManagedFields) {
		this.stripManagedFields = stripManagedFields;
		return this;
	}

	/**
	 * Set what to list, watch and cache of each object.
	 * @param cache the cache mode; {@code null} for {@link CacheMode#FULL}
	 * @return this builder
	 */
	public InformerDeclarationBuilder cache(@Nullable CacheMode cache) {
		this.cache = (cache != null) ? cache : CacheMode.FULL;
		return this;
	}

	/**
	 * Set whether to get the initial state from a watch-list instead of a list.
	 * @param watchList whether to use a watch-list
	 * @return this builder
	 */
	public InformerDeclarationBuilder watchList(boolean watchList) {
		this.watchList = watchList;
		return this;
	}

	/**
	 * Set whether to ask the API server for gzip-compressed lists (the default).
	 * @param compressLists whether to compress lists
	 * @return this builder
	 */
	public InformerDeclarationBuilder compressLists(boolean compressLists) {
		this.compressLists = compressLists;
		return this;
	}

	/**
	 * Set which updates are delivered: names of {@link ChangeTrigger}s or
	 * {@link ResourcePath paths}.
	 * @param onChange the parts, empty for every update
	 * @return this builder
	 */
	public InformerDeclarationBuilder onChange(@Nullable List<String> onChange) {
		this.onChange = (onChange != null) ? onChange : List.of();
		return this;
	}

	/**
	 * Set the paths to remove before an object is cached.
	 * @param prune the paths
	 * @return this builder
	 */
	public InformerDeclarationBuilder prune(@Nullable List<String> prune) {
		this.prune = (prune != null) ? prune : List.of();
		return this;
	}

	/**
	 * Set the indexes of the cache.
	 * @param indexes the path of each index by name
	 * @return this builder
	 */
	public InformerDeclarationBuilder indexes(@Nullable Map<String, String> indexes) {
		this.indexes = (indexes != null) ? indexes : Map.of();
		return this;
	}

	/**
	 * Validate and build the declaration.
	 * @return the declaration
	 * @throws InvalidInformerDeclarationException if a value cannot work
	 */
	public InformerDeclaration build() {
		return new InformerDeclaration(this);
	}

}
