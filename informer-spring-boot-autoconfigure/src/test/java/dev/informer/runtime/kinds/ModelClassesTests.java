package dev.informer.runtime.kinds;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.test.util.ReflectionTestUtils;

import dev.informer.InformerDeclaration;
import dev.informer.InformerDefinition;
import dev.informer.test.MockApiServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which fabric8 model class a declaration binds to, found without fabric8's own lookup,
 * which loads and instantiates every model class of every model jar the first time it is
 * asked (a third of a second of a cold start).
 */
class ModelClassesTests {

	private final MockApiServer mock = MockApiServer.crud();

	@AfterEach
	void close() {
		this.mock.close();
	}

	@Test
	void everyListedKindResolvesToTheClassFabric8sOwnLookupGives() throws IOException {
		KubernetesSerialization oracle = new KubernetesSerialization();
		ModelClasses classes = new ModelClasses(getClass().getClassLoader());
		List<Class<?>> listed = listedClasses();
		assertThat(listed).hasSizeGreaterThan(300);
		int resources = 0;
		for (Class<?> type : listed) {
			if (!HasMetadata.class.isAssignableFrom(type)) {
				continue;
			}
			Class<? extends HasMetadata> resource = type.asSubclass(HasMetadata.class);
			String apiVersion = HasMetadata.getApiVersion(resource);
			String kind = HasMetadata.getKind(resource);
			assertThat(classes.find(apiVersion, kind)).as(apiVersion + " " + kind)
				.isEqualTo(oracle.getRegisteredKubernetesResource(apiVersion, kind));
			resources++;
		}
		assertThat(resources).isGreaterThan(150);
		assertThat(classes.find("example.com/v1", "Widget")).isNull();
		assertThat(classes.find("v2", "ConfigMap")).isNull();
		assertThat(classes.find("v1", "Deployment")).isNull();
	}

	@Test
	void resolvingBuiltInKindsDoesNotLoadFabric8sWholeModel() {
		KubernetesClient client = this.mock.client();
		ResourceKindResolver resolver = new ResourceKindResolver(client, "test", getClass().getClassLoader());
		InformerDefinition<?> configMaps = resolver.resolve(declaration("v1", "ConfigMap"));
		InformerDefinition<?> deployments = resolver.resolve(declaration("apps/v1", "Deployment"));
		assertThat(configMaps.getResourceClass()).isEqualTo(ConfigMap.class);
		assertThat(deployments.getResourceClass()).isEqualTo(Deployment.class);
		assertThat(deployments.getPlural()).isEqualTo("deployments");
		// fabric8 creates its deserializer, and with it instantiates every model class,
		// on the first lookup of a registered kind
		assertThat(ReflectionTestUtils.getField(client.getKubernetesSerialization(), "kubernetesDeserializer"))
			.isNull();
	}

	private static InformerDeclaration declaration(String apiVersion, String kind) {
		return InformerDeclaration.builder(kind.toLowerCase()).apiVersion(apiVersion).kind(kind).build();
	}

	private List<Class<?>> listedClasses() throws IOException {
		List<Class<?>> classes = new ArrayList<>();
		for (URL url : Collections.list(
				getClass().getClassLoader().getResources("META-INF/services/" + KubernetesResource.class.getName()))) {
			try (InputStream in = url.openStream()) {
				for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
					String name = line.replaceAll("#.*", "").trim();
					if (!name.isEmpty()) {
						try {
							classes.add(Class.forName(name, false, getClass().getClassLoader()));
						}
						catch (ClassNotFoundException ex) {
							throw new IllegalStateException(ex);
						}
					}
				}
			}
		}
		return classes;
	}

}
