package dev.informer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code on-change}, {@code prune} and {@code indexes} of a declaration, parsed and
 * checked for what can be told without the kind's model class: the path syntax, the
 * names, metadata-only informers, and parts that contradict each other.
 */
final class ChangeDeclarations {

	private static final Pattern INDEX_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

	/** What a prune must keep: the cache's key and the change detection read them. */
	private static final List<ResourcePath> KEPT = List.of(ResourcePath.parse("metadata.name"),
			ResourcePath.parse("metadata.namespace"), ResourcePath.parse("metadata.resourceVersion"),
			ResourcePath.parse("metadata.uid"));

	private static final String SYNTAX = "Write a path as fields separated by '.', a map key in quotes and "
			+ "brackets, [*] for each element of a list, for example spec.replicas, metadata.labels['app'], "
			+ "metadata.ownerReferences[*].uid.";

	final List<String> onChange;

	final List<ResourcePath> changePaths;

	final boolean generation;

	final List<ResourcePath> prune;

	final Map<String, ResourcePath> indexes;

	private ChangeDeclarations(List<String> onChange, List<ResourcePath> changePaths, boolean generation,
			List<ResourcePath> prune, Map<String, ResourcePath> indexes) {
		this.onChange = List.copyOf(onChange);
		this.changePaths = List.copyOf(changePaths);
		this.generation = generation;
		this.prune = List.copyOf(prune);
		this.indexes = Collections.unmodifiableMap(new LinkedHashMap<>(indexes));
	}

	static ChangeDeclarations parse(String informer, CacheMode cache, List<String> onChange, List<String> prune,
			Map<String, String> indexes) {
		List<String> declared = onChange.stream().map(String::trim).toList();
		List<ResourcePath> changePaths = new ArrayList<>();
		boolean generation = false;
		for (int i = 0; i < declared.size(); i++) {
			String value = declared.get(i);
			String property = "on-change[" + i + "]";
			ChangeTrigger trigger = ChangeTrigger.of(value);
			if (trigger == ChangeTrigger.ANY) {
				if (declared.size() > 1) {
					throw new InvalidInformerDeclarationException(informer, "on-change", declared,
							"lists 'any' with other parts: 'any' delivers every update",
							"Keep only 'any' (or remove 'on-change'), or remove 'any' to deliver only changes of "
									+ "the other parts.");
				}
				continue;
			}
			List<ResourcePath> paths;
			if (trigger != null) {
				paths = trigger.getPaths();
				generation |= trigger == ChangeTrigger.GENERATION;
			}
			else {
				paths = List
					.of(path(informer, property, value, "is neither one of " + ChangeTrigger.names() + " nor a path",
							"Use one of those names, or a path. " + SYNTAX));
			}
			for (ResourcePath path : paths) {
				if (cache == CacheMode.METADATA && !path.isMetadata()) {
					throw new InvalidInformerDeclarationException(informer, property, value,
							"is not in metadata, and a metadata-only informer ('cache: metadata') has nothing "
									+ "else",
							"Use generation, labels, annotations, finalizers, owners, deletion or a metadata.* "
									+ "path, or set 'cache: full'.");
				}
				changePaths.add(path);
			}
		}
		List<ResourcePath> pruned = new ArrayList<>();
		for (int i = 0; i < prune.size(); i++) {
			String property = "prune[" + i + "]";
			String value = prune.get(i).trim();
			ResourcePath path = path(informer, property, value, "is not a path", SYNTAX);
			for (ResourcePath kept : KEPT) {
				if (kept.startsWith(path)) {
					throw new InvalidInformerDeclarationException(informer, property, value,
							"removes " + kept + ", which the cache needs to key and compare objects",
							"Prune fields inside metadata instead, for example "
									+ "metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'].");
				}
			}
			if (path.getSegments().get(path.getSegments().size() - 1).type() == ResourcePath.SegmentType.EACH) {
				throw new InvalidInformerDeclarationException(informer, property, value,
						"ends in [*], which selects the elements rather than a field to remove",
						"Remove the list itself (drop the trailing [*]) or a field of each element, for example "
								+ "status.conditions[*].message.");
			}
			if (cache == CacheMode.METADATA && !path.isMetadata()) {
				throw new InvalidInformerDeclarationException(informer, property, value,
						"is not in metadata, and a metadata-only informer ('cache: metadata') caches nothing else",
						"Prune a metadata.* path, or remove it: the informer never receives that field.");
			}
			for (ResourcePath used : changePaths) {
				if (used.startsWith(path) || path.startsWith(used)) {
					throw new InvalidInformerDeclarationException(informer, property, value,
							"removes what on-change compares (" + used + "): the filter would never see a change",
							"Remove the prune, or compare another part in on-change.");
				}
			}
			pruned.add(path);
		}
		Map<String, ResourcePath> indexPaths = new LinkedHashMap<>();
		for (Map.Entry<String, String> entry : indexes.entrySet()) {
			String name = entry.getKey();
			String property = "indexes." + name;
			if (!INDEX_NAME.matcher(name).matches() || "namespace".equals(name)) {
				throw new InvalidInformerDeclarationException(informer, "indexes", name,
						"is not a valid index name"
								+ ("namespace".equals(name) ? " ('namespace' is fabric8's own)" : ""),
						"Use lower-case letters, digits and '-', for example 'by-node'.");
			}
			String value = (entry.getValue() != null) ? entry.getValue().trim() : "";
			ResourcePath path = path(informer, property, value, "is not a path", SYNTAX);
			if (cache == CacheMode.METADATA && !path.isMetadata()) {
				throw new InvalidInformerDeclarationException(informer, property, value,
						"is not in metadata, and a metadata-only informer ('cache: metadata') has nothing else",
						"Index by a metadata.* path, for example metadata.labels['app'], or set 'cache: full'.");
			}
			for (ResourcePath removed : pruned) {
				if (path.startsWith(removed)) {
					throw new InvalidInformerDeclarationException(informer, property, value,
							"indexes what prune removes (" + removed + "): the index would be empty",
							"Remove the prune, or index another field.");
				}
			}
			indexPaths.put(name, path);
		}
		return new ChangeDeclarations(declared, changePaths, generation, pruned, indexPaths);
	}

	private static ResourcePath path(String informer, String property, String value, String problem, String action) {
		try {
			ResourcePath path = ResourcePath.parse(value);
			if ("apiVersion".equals(path.getRoot()) || "kind".equals(path.getRoot())) {
				throw new IllegalArgumentException("'" + path.getRoot() + "' is the same for every object");
			}
			return path;
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidInformerDeclarationException(informer, property, value,
					problem + " (" + ex.getMessage() + ")", action);
		}
	}

}
