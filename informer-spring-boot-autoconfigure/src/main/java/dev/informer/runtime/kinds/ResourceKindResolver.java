package dev.informer.runtime.kinds;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.fabric8.kubernetes.api.Pluralize;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

import dev.informer.CacheMode;
import dev.informer.DeclarationRules;
import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.InformerStartupException;
import dev.informer.InvalidInformerDeclarationException;
import dev.informer.runtime.changes.ModelPathCheck;
import dev.informer.watch.KubernetesErrors;

/**
 * Resolves declarations against the API server's discovery: the plural name, the scope,
 * and whether the server serves the kind at all. Built-in kinds bind to fabric8's model
 * classes, other kinds to {@link GenericKubernetesResource} unless the declaration names
 * a class.
 *
 * @since 0.1.0
 */
public class ResourceKindResolver {

	private static final Log logger = LogFactory.getLog(ResourceKindResolver.class);

	private final @Nullable KubernetesClient client;

	private final String configSource;

	private final @Nullable ClassLoader classLoader;

	private final boolean trustClassesWhenUnavailable;

	private final ModelClasses modelClasses;

	private final Map<String, APIResourceList> discovery = new HashMap<>();

	/**
	 * Create a resolver that fails when discovery fails.
	 * @param client the client to ask
	 * @param configSource where the client's configuration came from, for error messages
	 * @param classLoader the class loader for declared types
	 */
	public ResourceKindResolver(KubernetesClient client, String configSource, @Nullable ClassLoader classLoader) {
		this(client, configSource, classLoader, false);
	}

	/**
	 * Create a resolver.
	 * @param client the client to ask
	 * @param configSource where the client's configuration came from, for error messages
	 * @param classLoader the class loader for declared types
	 * @param trustClassesWhenUnavailable whether a kind with a model class (fabric8's, or
	 * a declared {@code type}) is resolved from its class when discovery fails for a
	 * reason that may pass (the server is unreachable, or answers 429 or 5xx), instead of
	 * failing
	 */
	public ResourceKindResolver(KubernetesClient client, String configSource, @Nullable ClassLoader classLoader,
			boolean trustClassesWhenUnavailable) {
		this.client = client;
		this.configSource = configSource;
		this.classLoader = classLoader;
		this.trustClassesWhenUnavailable = trustClassesWhenUnavailable;
		this.modelClasses = new ModelClasses(classLoader);
	}

	/**
	 * Create a resolver that never asks the server, for a training run (see
	 * {@code TrainingRun}): a kind with a model class (fabric8's, or a declared
	 * {@code type}) takes its plural and scope from it, a kind without one is taken as a
	 * namespaced {@link GenericKubernetesResource} with its plural derived from the kind.
	 * Nothing is checked against the server, so only a run whose informers never start
	 * may use it.
	 * @param classLoader the class loader for declared types
	 * @return the resolver
	 */
	public static ResourceKindResolver withoutServer(@Nullable ClassLoader classLoader) {
		return new ResourceKindResolver(classLoader);
	}

	private ResourceKindResolver(@Nullable ClassLoader classLoader) {
		this.client = null;
		this.configSource = "no API server (training run)";
		this.classLoader = classLoader;
		this.trustClassesWhenUnavailable = false;
		this.modelClasses = new ModelClasses(classLoader);
	}

	/**
	 * Resolve a declaration.
	 * @param declaration the declaration
	 * @return the definition
	 * @throws InvalidInformerDeclarationException if the server does not serve what is
	 * declared
	 * @throws InformerStartupException if the server cannot be asked
	 */
	public InformerDefinition<?> resolve(InformerDeclaration declaration) {
		Class<? extends HasMetadata> type = resolveClass(declaration);
		ModelPathCheck.check(declaration, type);
		APIResource resource = discover(declaration, type);
		boolean namespaced = Boolean.TRUE.equals(resource.getNamespaced());
		if (type != GenericKubernetesResource.class && Namespaced.class.isAssignableFrom(type) != namespaced) {
			throw new InvalidInformerDeclarationException(declaration.getName(), "type", type.getName(),
					"does not match the API server: the server says " + declaration.getKind() + " is "
							+ (namespaced ? "namespaced" : "cluster-scoped"),
					"Use a class that " + (namespaced ? "implements" : "does not implement")
							+ " io.fabric8.kubernetes.api.model.Namespaced.");
		}
		if (!namespaced && !declaration.getNamespaces().isEmpty()) {
			throw new InvalidInformerDeclarationException(declaration.getName(), "namespaces",
					declaration.getNamespaces(), "is set but " + declaration.getKind() + " is cluster-scoped",
					"Remove 'namespaces': cluster-scoped kinds are watched cluster-wide.");
		}
		if (!namespaced && declaration.getNamespaceSelector() != null) {
			throw new InvalidInformerDeclarationException(declaration.getName(), "namespace-selector",
					declaration.getNamespaceSelector(), "is set but " + declaration.getKind() + " is cluster-scoped",
					"Remove 'namespace-selector': cluster-scoped kinds have no namespaces and are watched "
							+ "cluster-wide.");
		}
		// a metadata-only informer resolves plural and scope as its kind's full form
		// would
		Class<? extends HasMetadata> delivered = (declaration.getCache() == CacheMode.METADATA)
				? PartialObjectMetadata.class : type;
		return create(declaration, delivered, resource.getName(), namespaced);
	}

	private static <T extends HasMetadata> InformerDefinition<T> create(InformerDeclaration declaration, Class<T> type,
			String plural, boolean namespaced) {
		return new InformerDefinition<>(declaration, type, plural, namespaced);
	}

	private Class<? extends HasMetadata> resolveClass(InformerDeclaration declaration) {
		String typeName = declaration.getType();
		if (typeName == null) {
			// not the client's getRegisteredKubernetesResource: it instantiates every
			// model class on first use
			Class<? extends HasMetadata> model = this.modelClasses.find(declaration.getApiVersion(),
					declaration.getKind());
			return (model != null) ? model : GenericKubernetesResource.class;
		}
		Class<?> type;
		try {
			type = ClassUtils.forName(typeName, this.classLoader);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			throw new InvalidInformerDeclarationException(declaration.getName(), "type", typeName,
					"is not a class on the classpath",
					"Check the fully qualified class name, or remove 'type' to watch the kind as "
							+ "GenericKubernetesResource.",
					ex);
		}
		if (!HasMetadata.class.isAssignableFrom(type)) {
			throw new InvalidInformerDeclarationException(declaration.getName(), "type", typeName,
					"does not implement io.fabric8.kubernetes.api.model.HasMetadata",
					"Use a fabric8 model class or a CustomResource subclass, or remove 'type'.");
		}
		String classApiVersion = HasMetadata.getApiVersion(type);
		String classKind = HasMetadata.getKind(type);
		if (classApiVersion != null && !classApiVersion.equals(declaration.getApiVersion())
				|| !declaration.getKind().equals(classKind)) {
			throw new InvalidInformerDeclarationException(declaration.getName(), "type", typeName,
					"is annotated for " + classApiVersion + " " + classKind + ", not " + declaration.getApiVersion()
							+ " " + declaration.getKind(),
					"Make 'api-version' and 'kind' match the class's @Group/@Version/@Kind, or use another class.");
		}
		return type.asSubclass(HasMetadata.class);
	}

	private APIResource discover(InformerDeclaration declaration, Class<? extends HasMetadata> type) {
		if (this.client == null) {
			return (type != GenericKubernetesResource.class) ? fromClass(declaration, type)
					: new APIResourceBuilder().withKind(declaration.getKind())
						.withName(Pluralize.toPlural(declaration.getKind().toLowerCase(Locale.ROOT)))
						.withNamespaced(true)
						.build();
		}
		APIResourceList resources;
		try {
			resources = resourcesOf(declaration);
		}
		catch (DiscoveryUnavailableException ex) {
			if (!this.trustClassesWhenUnavailable || type == GenericKubernetesResource.class) {
				throw discoveryFailure(declaration, ex.getCause());
			}
			logger.warn("Informer '" + declaration.getName() + "': API discovery of " + declaration.getApiVersion()
					+ " failed (" + KubernetesErrors.describeAnswer(ex.getCause()) + "); starting it from the class "
					+ type.getName() + " without checking that the server serves " + declaration.getKind()
					+ ": its list retries until the server answers");
			return fromClass(declaration, type);
		}
		if (resources.getResources().isEmpty() && type != GenericKubernetesResource.class) {
			// A real API server answers 404 for a group version it does not serve; an
			// empty list comes from servers without discovery (fabric8's mock): trust the
			// class.
			return fromClass(declaration, type);
		}
		List<APIResource> kinds = resources.getResources()
			.stream()
			.filter((resource) -> !resource.getName().contains("/"))
			.toList();
		if (kinds.isEmpty()) {
			throw notServed(declaration);
		}
		return kinds.stream()
			.filter((resource) -> declaration.getKind().equals(resource.getKind()))
			.findFirst()
			.orElseThrow(() -> {
				List<String> served = kinds.stream().map(APIResource::getKind).sorted().toList();
				List<String> nearest = DeclarationRules.nearest(declaration.getKind(), served);
				return new InvalidInformerDeclarationException(declaration.getName(), "kind", declaration.getKind(),
						"is not served by the API server in " + declaration.getApiVersion(),
						(nearest.isEmpty() ? "" : "Did you mean '" + nearest.get(0) + "'? ")
								+ "Use one of the kinds it serves there: " + String.join(", ", served) + ".");
			});
	}

	private static APIResource fromClass(InformerDeclaration declaration, Class<? extends HasMetadata> type) {
		return new APIResourceBuilder().withKind(declaration.getKind())
			.withName(HasMetadata.getPlural(type))
			.withNamespaced(Namespaced.class.isAssignableFrom(type))
			.build();
	}

	private APIResourceList resourcesOf(InformerDeclaration declaration) {
		String groupVersion = declaration.getApiVersion();
		APIResourceList cached = this.discovery.get(groupVersion);
		if (cached != null) {
			return cached;
		}
		APIResourceList resources;
		KubernetesClient client = this.client;
		Assert.state(client != null, "No client to ask");
		try {
			resources = client.getApiResources(groupVersion);
		}
		catch (KubernetesClientException ex) {
			int code = KubernetesErrors.httpCode(ex);
			if (KubernetesErrors.isConnectionFailure(ex) || code == 429 || code >= 500) {
				throw new DiscoveryUnavailableException(ex);
			}
			if (code != 404) {
				throw discoveryFailure(groupVersion, ex);
			}
			resources = null;
		}
		if (resources == null || resources.getResources() == null) {
			throw notServed(declaration);
		}
		this.discovery.put(groupVersion, resources);
		return resources;
	}

	private InvalidInformerDeclarationException notServed(InformerDeclaration declaration) {
		// a misspelt built-in kind, on a server whose discovery lists none (fabric8's
		// mock):
		// blame the kind, not the API version every server serves
		List<String> builtIn = this.modelClasses.nearestKinds(declaration.getApiVersion(), declaration.getKind());
		if (!builtIn.isEmpty() && this.modelClasses.find(declaration.getApiVersion(), declaration.getKind()) == null) {
			return new InvalidInformerDeclarationException(declaration.getName(), "kind", declaration.getKind(),
					"is not a known kind of " + declaration.getApiVersion()
							+ " (the API server's discovery lists no kinds there)",
					"Did you mean '" + builtIn.get(0) + "'? The nearest built-in kinds of "
							+ declaration.getApiVersion() + ": " + String.join(", ", builtIn)
							+ ". Kinds are spelt as the API server spells them, in UpperCamelCase.");
		}
		String group = declaration.getGroup();
		List<String> versions = List.of();
		try {
			APIGroup apiGroup = (group.isEmpty() || this.client == null) ? null : this.client.getApiGroup(group);
			if (apiGroup != null && apiGroup.getVersions() != null) {
				versions = apiGroup.getVersions().stream().map(GroupVersionForDiscovery::getGroupVersion).toList();
			}
		}
		catch (KubernetesClientException ex) {
			// the group is not served either; say so below
		}
		if (versions.isEmpty()) {
			String groupName = group.isEmpty() ? "the core group" : "API group '" + group + "'";
			return new InvalidInformerDeclarationException(declaration.getName(), "api-version",
					declaration.getApiVersion(), "is not served by the API server: it does not know " + groupName,
					"Check the group's spelling, and for a custom resource install its "
							+ "CustomResourceDefinition before the application starts.");
		}
		return new InvalidInformerDeclarationException(declaration.getName(), "api-version",
				declaration.getApiVersion(), "is not served by the API server",
				"Use a version it serves for this group: " + String.join(", ", versions) + ".");
	}

	private InformerStartupException discoveryFailure(InformerDeclaration declaration, KubernetesClientException ex) {
		InformerStartupException failure = discoveryFailure(declaration.getApiVersion(), ex);
		if (!this.trustClassesWhenUnavailable) {
			return failure;
		}
		return new InformerStartupException(failure.getMessage(), failure.getAction() + " Informer '"
				+ declaration.getName() + "' cannot start without discovery: " + declaration.getKind()
				+ " has no model class to take its plural and scope from; declare one with 'type' (for example a "
				+ "CustomResource subclass) to start while discovery is unavailable.", ex);
	}

	private InformerStartupException discoveryFailure(String groupVersion, KubernetesClientException ex) {
		InformerStartupException noCluster = noCluster(ex);
		if (noCluster != null) {
			return noCluster;
		}
		if (KubernetesErrors.isConnectionFailure(ex)) {
			return new InformerStartupException(
					"Cannot reach the Kubernetes " + this.configSource + ": " + KubernetesErrors.message(ex),
					"Check that the cluster is running and reachable from here, that the kubeconfig's current "
							+ "context is the one you want (kubectl config current-context), or set "
							+ "informer.enabled=false to start without informers.",
					ex);
		}
		int code = KubernetesErrors.httpCode(ex);
		if (code == 401 || code == 403) {
			return new InformerStartupException(
					"The Kubernetes " + this.configSource + " refused API discovery of " + groupVersion + " (HTTP "
							+ code + " " + KubernetesErrors.reason(ex) + ")",
					"Check the credentials of the current kubeconfig context or the pod's service account; "
							+ "discovery is normally allowed to every authenticated user.",
					ex);
		}
		return new InformerStartupException(
				"API discovery of " + groupVersion + " failed at the Kubernetes " + this.configSource + ": HTTP " + code
						+ " " + KubernetesErrors.message(ex),
				"Check the API server's health (kubectl get --raw /readyz).", ex);
	}

	/**
	 * Explain a connection failure of fabric8's last resort, when it found neither a
	 * kubeconfig nor a pod's service account and tried https://kubernetes.default.svc:
	 * fabric8 says only "An error has occurred."
	 */
	private @Nullable InformerStartupException noCluster(KubernetesClientException ex) {
		KubernetesClient client = this.client;
		if (client == null || !KubernetesErrors.isConnectionFailure(ex) || client.getConfiguration().getFile() != null
				|| !"kubernetes.default.svc".equals(client.getMasterUrl().getHost())
				|| System.getenv("KUBERNETES_SERVICE_HOST") != null) {
			return null;
		}
		String kubeconfig = String.join(", ", Config.getKubeconfigFilenames());
		return new InformerStartupException(
				"No Kubernetes cluster to watch: there is no kubeconfig at " + kubeconfig
						+ " (the KUBECONFIG variable, else ~/.kube/config), and this is not a pod with an in-cluster "
						+ "service account, so fabric8 tried " + client.getMasterUrl() + " and could not reach it ("
						+ deepest(ex) + ").",
				"Point KUBECONFIG at the kubeconfig of a running cluster (kubectl config current-context names the "
						+ "one it uses), run the application in a pod, or set informer.enabled=false to start "
						+ "without informers.",
				ex);
	}

	private static String deepest(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root.getClass().getSimpleName() + ((root.getMessage() != null) ? ": " + root.getMessage() : "");
	}

	/**
	 * Discovery failed for a reason that may pass.
	 */
	private static final class DiscoveryUnavailableException extends RuntimeException {

		DiscoveryUnavailableException(KubernetesClientException cause) {
			super(cause.getMessage(), cause, false, false);
		}

		@Override
		public synchronized KubernetesClientException getCause() {
			return (KubernetesClientException) super.getCause();
		}

	}

}
