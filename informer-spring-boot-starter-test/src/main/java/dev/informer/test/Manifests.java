package dev.informer.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;

import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

import org.springframework.core.io.Resource;

/**
 * Creates the objects of Kubernetes manifests before the informers start, in the order
 * they are written; after a CustomResourceDefinition it waits until the server serves the
 * new resource, so that objects of it (and informers of it) can follow.
 */
final class Manifests {

	private Manifests() {
	}

	/**
	 * Create (or patch, when they exist) the objects of the manifests.
	 * @param client the client; namespaced objects without a namespace go to its
	 * namespace
	 * @param manifests the YAML or JSON manifests
	 * @param timeout how long to wait for each CRD to be served
	 */
	static void apply(KubernetesClient client, List<Resource> manifests, Duration timeout) {
		for (Resource manifest : manifests) {
			for (HasMetadata item : load(client, manifest)) {
				client.resource(item).createOr(NonDeletingOperation::patch);
				if (item instanceof CustomResourceDefinition crd) {
					awaitServed(client, crd, manifest, timeout);
				}
			}
		}
	}

	private static List<HasMetadata> load(KubernetesClient client, Resource manifest) {
		try (InputStream content = manifest.getInputStream()) {
			return client.load(content).items();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read manifest " + manifest.getDescription(), ex);
		}
	}

	private static void awaitServed(KubernetesClient client, CustomResourceDefinition crd, Resource manifest,
			Duration timeout) {
		String group = crd.getSpec().getGroup();
		String plural = crd.getSpec().getNames().getPlural();
		List<String> versions = crd.getSpec()
			.getVersions()
			.stream()
			.filter(CustomResourceDefinitionVersion::getServed)
			.map(CustomResourceDefinitionVersion::getName)
			.toList();
		try {
			Awaitility.await()
				.atMost(timeout)
				.pollInterval(Duration.ofMillis(50))
				.ignoreException(KubernetesClientException.class)
				.until(() -> versions.stream().allMatch((version) -> serves(client, group + "/" + version, plural)));
		}
		catch (ConditionTimeoutException ex) {
			throw new IllegalStateException(
					"The API server did not serve " + plural + "." + group + " " + versions + " within " + timeout
							+ " after creating its CustomResourceDefinition from " + manifest.getDescription(),
					ex);
		}
	}

	private static boolean serves(KubernetesClient client, String groupVersion, String plural) {
		APIResourceList resources = client.getApiResources(groupVersion);
		return resources != null
				&& resources.getResources().stream().anyMatch((resource) -> plural.equals(resource.getName()));
	}

}
