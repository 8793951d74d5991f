package dev.informer.runtime.kinds;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;

import dev.informer.watch.UndecodableObject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * What one informer's serialization decodes, against what fabric8's own decodes from the
 * same messages: the same objects, read the fast way when the API server's order allows
 * it, and fabric8's way (with fabric8's errors) when not.
 */
class InformerSerializationTests {

	private static final String MANAGED_FIELDS = "\"managedFields\":[{\"manager\":\"kubectl\",\"operation\":\"Apply\","
			+ "\"apiVersion\":\"v1\",\"time\":\"2026-12-03T08:00:00Z\",\"fieldsType\":\"FieldsV1\","
			+ "\"fieldsV1\":{\"f:data\":{\"f:color\":{}},\"f:metadata\":{\"f:labels\":{\"f:app\":{}}}}}]";

	private static final String CONFIG_MAP = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\","
			+ "\"namespace\":\"apps\",\"uid\":\"u-1\",\"resourceVersion\":\"42\",\"labels\":{\"app\":\"web\"},"
			+ MANAGED_FIELDS + "},\"data\":{\"color\":\"blue\"}}";

	private final KubernetesSerialization fabric8 = new KubernetesSerialization();

	@Test
	void aTypedWatchEventDecodesToWhatFabric8Decodes() {
		String message = event("MODIFIED", CONFIG_MAP);
		WatchEvent ours = serialization(ConfigMap.class, "ConfigMap", false).unmarshal(message, WatchEvent.class);
		WatchEvent theirs = this.fabric8.unmarshal(message, WatchEvent.class);
		assertThat(ours.getType()).isEqualTo("MODIFIED");
		assertThat(ours.getObject()).isInstanceOf(ConfigMap.class).isEqualTo(theirs.getObject());
		assertThat(((ConfigMap) ours.getObject()).getMetadata().getManagedFields()).hasSize(1);
	}

	@Test
	void managedFieldsAreSkippedWhenTheInformerStripsThem() {
		String message = event("ADDED", CONFIG_MAP);
		ConfigMap decoded = (ConfigMap) serialization(ConfigMap.class, "ConfigMap", true)
			.unmarshal(message, WatchEvent.class)
			.getObject();
		assertThat(decoded.getMetadata().getManagedFields()).isEmpty();
		assertThat(decoded.getMetadata().getAdditionalProperties()).doesNotContainKey("managedFields");
		assertThat(decoded.getMetadata().getLabels()).containsEntry("app", "web");
		assertThat(decoded.getData()).containsEntry("color", "blue");
		// lists too: what an informer's initial list decodes into
		String list = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\",\"metadata\":{\"resourceVersion\":\"42\"},"
				+ "\"items\":[" + CONFIG_MAP + "]}";
		assertThat(serialization(ConfigMap.class, "ConfigMap", true).unmarshal(list, ConfigMapList.class).getItems())
			.singleElement()
			.satisfies((item) -> assertThat(item.getMetadata().getManagedFields()).isEmpty());
	}

	@Test
	void aCompressedListIsInflatedAndAPlainOneReadAsItIs() throws IOException {
		String list = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\",\"metadata\":{\"resourceVersion\":\"42\"},"
				+ "\"items\":[" + CONFIG_MAP + "]}";
		ByteArrayOutputStream compressed = new ByteArrayOutputStream();
		try (GZIPOutputStream gzip = new GZIPOutputStream(compressed)) {
			gzip.write(list.getBytes(StandardCharsets.UTF_8));
		}
		InformerSerialization ours = serialization(ConfigMap.class, "ConfigMap", false);
		TypeReference<ConfigMapList> type = new TypeReference<>() {
		};
		ConfigMapList inflated = ours.unmarshal(new ByteArrayInputStream(compressed.toByteArray()), type);
		ConfigMapList plain = ours.unmarshal(new ByteArrayInputStream(list.getBytes(StandardCharsets.UTF_8)), type);
		assertThat(inflated).isEqualTo(plain).isEqualTo(this.fabric8.unmarshal(list, ConfigMapList.class));
	}

	@Test
	void genericAndMetadataOnlyObjectsAreBoundToTheInformersClass() {
		String widget = "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\","
				+ "\"resourceVersion\":\"7\"},\"spec\":{\"color\":\"red\"}}";
		Object generic = serialization(GenericKubernetesResource.class, "Widget", true)
			.unmarshal(event("ADDED", widget), WatchEvent.class)
			.getObject();
		assertThat(generic).isInstanceOf(GenericKubernetesResource.class);
		assertThat(((GenericKubernetesResource) generic).getAdditionalProperties()).containsKey("spec");
		String metadata = "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"PartialObjectMetadata\",\"metadata\":"
				+ "{\"name\":\"a\",\"namespace\":\"apps\",\"resourceVersion\":\"9\"}}";
		assertThat(serialization(PartialObjectMetadata.class, "PartialObjectMetadata", true)
			.unmarshal(event("DELETED", metadata), WatchEvent.class)
			.getObject()).isInstanceOf(PartialObjectMetadata.class);
	}

	@Test
	void anErrorEventCarriesItsStatus() {
		String status = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"too old\","
				+ "\"reason\":\"Expired\",\"code\":410}";
		Object object = serialization(ConfigMap.class, "ConfigMap", true)
			.unmarshal(event("ERROR", status), WatchEvent.class)
			.getObject();
		assertThat(object).isInstanceOfSatisfying(Status.class,
				(decoded) -> assertThat(decoded.getCode()).isEqualTo(410));
	}

	@Test
	void whatCannotBeReadTheFastWayIsReadAsFabric8ReadsIt() {
		InformerSerialization ours = serialization(ConfigMap.class, "ConfigMap", false);
		// the object before its type
		String reversed = "{\"object\":" + CONFIG_MAP + ",\"type\":\"ADDED\"}";
		assertThat(ours.unmarshal(reversed, WatchEvent.class).getObject())
			.isEqualTo(this.fabric8.unmarshal(reversed, WatchEvent.class).getObject());
		// another kind than the informer's: fabric8 decides what it is
		String secret = CONFIG_MAP.replace("\"kind\":\"ConfigMap\"", "\"kind\":\"Secret\"");
		assertThat(ours.unmarshal(event("ADDED", secret), WatchEvent.class).getObject())
			.isEqualTo(this.fabric8.unmarshal(event("ADDED", secret), WatchEvent.class).getObject());
		// malformed: fabric8's error
		String malformed = "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":";
		Exception theirs = catchFrom(() -> this.fabric8.unmarshal(malformed, WatchEvent.class));
		assertThatException().isThrownBy(() -> ours.unmarshal(malformed, WatchEvent.class))
			.isInstanceOf(theirs.getClass())
			.withMessage(theirs.getMessage());
	}

	@Test
	void aListWithAnObjectThatDoesNotDecodeDecodesTheOthersAsAListWithoutItWould() {
		String undecodable = CONFIG_MAP.replace("\"name\":\"a\"", "\"name\":\"b\"")
			.replace("\"data\":", "\"immutable\":{\"not\":\"a boolean\"},\"data\":");
		String second = CONFIG_MAP.replace("\"name\":\"a\"", "\"name\":\"c\"");
		String withIt = list(CONFIG_MAP, undecodable, second);
		List<UndecodableObject> named = new ArrayList<>();
		InformerSerialization ours = serialization(ConfigMap.class, "ConfigMap", true).reporting(new Listed(named));
		TypeReference<ConfigMapList> type = new TypeReference<>() {
		};
		ConfigMapList decoded = ours.unmarshal(new ByteArrayInputStream(withIt.getBytes(StandardCharsets.UTF_8)), type);
		ConfigMapList without = serialization(ConfigMap.class, "ConfigMap", true)
			.unmarshal(new ByteArrayInputStream(list(CONFIG_MAP, second).getBytes(StandardCharsets.UTF_8)), type);
		assertThat(decoded).isEqualTo(without);
		assertThat(decoded.getItems()).extracting((item) -> item.getMetadata().getManagedFields())
			.allMatch(List::isEmpty);
		assertThat(named).singleElement().satisfies((object) -> {
			assertThat(object.key()).isEqualTo("apps/b");
			assertThat(object.resourceVersion()).isEqualTo("42");
			assertThat(object.toString()).contains("immutable").doesNotContain("a boolean");
		});
	}

	private static String list(String... items) {
		return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\",\"metadata\":{\"resourceVersion\":\"42\"},"
				+ "\"items\":[" + String.join(",", items) + "]}";
	}

	/**
	 * Keeps what a list's last page names.
	 */
	private record Listed(List<UndecodableObject> named) implements UndecodableObjects {

		@Override
		public void skipped(UndecodableObject object) {
		}

		@Override
		public void deleted(String key) {
		}

		@Override
		public void listed(Collection<UndecodableObject> skipped) {
			this.named.addAll(skipped);
		}

		@Override
		public @Nullable HasMetadata cached(String key) {
			return null;
		}

		@Override
		public void stoppedDecoding(HasMetadata handedOn, HasMetadata lastDecoded) {
		}

	}

	private static InformerSerialization serialization(Class<?> type, String kind, boolean skipManagedFields) {
		return new InformerSerialization(type, kind, skipManagedFields);
	}

	private static String event(String type, String object) {
		return "{\"type\":\"" + type + "\",\"object\":" + object + "}";
	}

	private static Exception catchFrom(Runnable runnable) {
		try {
			runnable.run();
		}
		catch (Exception ex) {
			return ex;
		}
		throw new AssertionError("fabric8 read a malformed message");
	}

}
