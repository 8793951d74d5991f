package dev.informer.runtime.kinds;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import org.jspecify.annotations.Nullable;

import dev.informer.DeclarationRules;

/**
 * Finds fabric8's model class of a kind from the class names the model jars list in
 * {@code META-INF/services/io.fabric8.kubernetes.api.model.KubernetesResource}, the list
 * fabric8's own lookup ({@code KubernetesSerialization.getRegisteredKubernetesResource})
 * reads too. That lookup loads and instantiates every listed class (about 350) the first
 * time it is asked, a third of a second of a cold start and metaspace held for good; this
 * one loads only the classes whose simple name is the kind, without initializing them.
 */
final class ModelClasses {

	static final String SERVICES = "META-INF/services/" + KubernetesResource.class.getName();

	private final List<ClassLoader> classLoaders;

	private @Nullable List<Listed> listed;

	/**
	 * Create a lookup over a class loader and the one that loaded fabric8's model.
	 * @param classLoader the application's class loader, or {@code null} for fabric8's
	 * alone
	 */
	ModelClasses(@Nullable ClassLoader classLoader) {
		Set<ClassLoader> loaders = new LinkedHashSet<>();
		if (classLoader != null) {
			loaders.add(classLoader);
		}
		loaders.add(KubernetesResource.class.getClassLoader());
		this.classLoaders = List.copyOf(loaders);
	}

	/**
	 * The model class of a kind.
	 * @param apiVersion the API version ({@code v1}, {@code apps/v1})
	 * @param kind the kind
	 * @return the class, or {@code null} if no model jar on the class path has one
	 */
	@Nullable Class<? extends HasMetadata> find(String apiVersion, String kind) {
		String suffix = "." + kind;
		for (Listed candidate : listed()) {
			if (!candidate.name().endsWith(suffix)) {
				continue;
			}
			Class<?> type;
			try {
				type = Class.forName(candidate.name(), false, candidate.classLoader());
			}
			catch (ClassNotFoundException | LinkageError ex) {
				continue;
			}
			if (HasMetadata.class.isAssignableFrom(type)) {
				Class<? extends HasMetadata> resource = type.asSubclass(HasMetadata.class);
				if (apiVersion.equals(HasMetadata.getApiVersion(resource))
						&& kind.equals(HasMetadata.getKind(resource))) {
					return resource;
				}
			}
		}
		return null;
	}

	/**
	 * The kinds of fabric8's model closest to a misspelt kind of an API version, nearest
	 * first.
	 * @param apiVersion the API version ({@code v1}, {@code apps/v1})
	 * @param kind the misspelt kind
	 * @return the nearest kinds that have a model class of that API version, empty when
	 * none is close
	 */
	List<String> nearestKinds(String apiVersion, String kind) {
		Set<String> simpleNames = new LinkedHashSet<>();
		for (Listed candidate : listed()) {
			simpleNames.add(candidate.name().substring(candidate.name().lastIndexOf('.') + 1));
		}
		return DeclarationRules.nearest(kind, simpleNames)
			.stream()
			.filter((candidate) -> find(apiVersion, candidate) != null)
			.toList();
	}

	private List<Listed> listed() {
		List<Listed> listed = this.listed;
		if (listed == null) {
			listed = read();
			this.listed = listed;
		}
		return listed;
	}

	private List<Listed> read() {
		List<Listed> listed = new ArrayList<>();
		Set<URL> seen = new LinkedHashSet<>();
		for (ClassLoader classLoader : this.classLoaders) {
			try {
				for (URL url : Collections.list(classLoader.getResources(SERVICES))) {
					if (seen.add(url)) {
						for (String name : names(url)) {
							listed.add(new Listed(name, classLoader));
						}
					}
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Cannot read " + SERVICES, ex);
			}
		}
		return listed;
	}

	private static List<String> names(URL url) throws IOException {
		List<String> names = new ArrayList<>();
		try (InputStream in = url.openStream()) {
			for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
				int comment = line.indexOf('#');
				String name = ((comment >= 0) ? line.substring(0, comment) : line).trim();
				if (!name.isEmpty()) {
					names.add(name);
				}
			}
		}
		return names;
	}

	private record Listed(String name, ClassLoader classLoader) {
	}

}
