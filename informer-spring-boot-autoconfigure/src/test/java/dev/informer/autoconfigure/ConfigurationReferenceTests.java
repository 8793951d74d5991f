package dev.informer.autoconfigure;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/configuration.md} lists exactly the properties of the generated
 * configuration metadata, with the same type, default and description, and every property
 * of an informer declaration ({@link InformerProperties.Resource}, a map value the
 * metadata does not describe) with its type; its table of renamed properties lists
 * exactly the deprecated ones, each with the replacement the metadata gives.
 */
class ConfigurationReferenceTests {

	private static final Path METADATA = Path.of("target/classes/META-INF/spring-configuration-metadata.json");

	private static final Path REFERENCE = Path.of("../docs/configuration.md");

	private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| `([^`]+)` \\| (`[^`]*`|-) \\| (.+) \\|$",
			Pattern.MULTILINE);

	private static final Pattern RENAMED = Pattern.compile("^\\| `(informer\\.[^`]+)` \\| `([^`]+)` \\|$",
			Pattern.MULTILINE);

	private static final String RESOURCE = "informer.resources.<name>.";

	@Test
	void everyPropertyOfTheMetadataIsDocumentedWithItsTypeDefaultAndDescription() throws IOException {
		Map<String, Row> documented = documented();
		JsonNode metadata = new ObjectMapper().readTree(METADATA.toFile());
		Map<String, Row> expected = new LinkedHashMap<>();
		for (JsonNode property : metadata.get("properties")) {
			String name = property.get("name").asText();
			if (name.equals("informer.resources") || property.has("deprecation")) {
				continue; // documented entry by entry, and in the table of renamed
							// properties
			}
			String type = property.get("type").asText();
			JsonNode defaultValue = property.get("defaultValue");
			expected.put(name, new Row(type.substring(type.lastIndexOf('.') + 1),
					(defaultValue != null) ? defaultValue.asText() : "-", property.path("description").asText()));
		}
		Map<String, Row> documentedGlobal = documented.entrySet()
			.stream()
			.filter((entry) -> !entry.getKey().startsWith(RESOURCE))
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
		assertThat(documentedGlobal).isEqualTo(expected);
	}

	@Test
	void everyPropertyOfAnInformerDeclarationIsDocumentedWithItsType() throws IOException {
		Map<String, String> expected = new LinkedHashMap<>();
		for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(InformerProperties.Resource.class)) {
			if (property.getWriteMethod() != null && !property.getReadMethod().isAnnotationPresent(Deprecated.class)) {
				expected.put(RESOURCE + kebab(property.getName()),
						simpleName(property.getWriteMethod().getGenericParameterTypes()[0]));
			}
		}
		for (PropertyDescriptor property : BeanUtils
			.getPropertyDescriptors(InformerProperties.Resource.Replicas.class)) {
			if (property.getWriteMethod() != null) {
				expected.put(RESOURCE + "replicas." + kebab(property.getName()),
						simpleName(property.getWriteMethod().getGenericParameterTypes()[0]));
			}
		}
		Map<String, String> documented = documented().entrySet()
			.stream()
			.filter((entry) -> entry.getKey().startsWith(RESOURCE))
			.collect(Collectors.toMap(Map.Entry::getKey, (entry) -> entry.getValue().type()));
		assertThat(documented).isEqualTo(expected);
		assertThat(documented()).allSatisfy((name, row) -> assertThat(row.description()).isNotBlank());
	}

	@Test
	void informerDeclarationDefaultsAreTheDocumentedOnes() throws IOException {
		InformerProperties.Resource defaults = new InformerProperties.Resource();
		Map<String, Row> documented = documented();
		assertThat(documented.get(RESOURCE + "enabled").defaultValue()).isEqualTo(String.valueOf(defaults.isEnabled()));
		assertThat(documented.get(RESOURCE + "namespaces").defaultValue())
			.isEqualTo(defaults.getNamespaces().toString());
		// null in the declaration: the global default applies
		assertThat(defaults.getResyncPeriod()).isNull();
		assertThat(documented.get(RESOURCE + "resync-period").defaultValue()).isEqualTo("informer.resync-period");
		assertThat(defaults.getListPageSize()).isNull();
		assertThat(documented.get(RESOURCE + "list-page-size").defaultValue()).isEqualTo("informer.list-page-size");
		assertThat(defaults.getStripManagedFields()).isNull();
		assertThat(documented.get(RESOURCE + "strip-managed-fields").defaultValue())
			.isEqualTo("informer.strip-managed-fields");
	}

	@Test
	void everyDeprecatedPropertyIsInTheTableOfRenamedPropertiesWithTheReplacementOfTheMetadata() throws IOException {
		JsonNode metadata = new ObjectMapper().readTree(METADATA.toFile());
		Map<String, String> expected = new LinkedHashMap<>();
		Map<String, JsonNode> properties = new LinkedHashMap<>();
		metadata.get("properties").forEach((property) -> properties.put(property.get("name").asText(), property));
		properties.forEach((name, property) -> {
			JsonNode deprecation = property.get("deprecation");
			if (deprecation != null) {
				// Spring Boot writes no level for a warning, the default
				assertThat(deprecation.path("level").asText("warning")).as(name).isEqualTo("warning");
				String replacement = deprecation.path("replacement").asText();
				assertThat(properties.get(replacement)).as("replacement of %s", name).isNotNull();
				assertThat(properties.get(replacement).has("deprecation")).as(replacement).isFalse();
				expected.put(name, replacement);
			}
		});
		// an informer's properties are a map value, which the metadata does not describe
		for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(InformerProperties.Resource.class)) {
			DeprecatedConfigurationProperty deprecated = (property.getReadMethod() != null)
					? property.getReadMethod().getAnnotation(DeprecatedConfigurationProperty.class) : null;
			if (deprecated != null) {
				assertThat(documented()).containsKey(deprecated.replacement());
				expected.put(RESOURCE + kebab(property.getName()), deprecated.replacement());
			}
		}
		Map<String, String> renamed = new LinkedHashMap<>();
		Matcher matcher = RENAMED.matcher(Files.readString(REFERENCE));
		while (matcher.find()) {
			renamed.put(matcher.group(1), matcher.group(2));
		}
		assertThat(renamed).isEqualTo(expected);
	}

	@Test
	void theMetadataMarksEachDeliveryPropertyDeprecatedWithItsReplacement() throws IOException {
		// the names issue 34 fixes: users and tests depend on them
		Map<String, String> expected = new LinkedHashMap<>();
		for (String property : new String[] { "max-threads", "max-backlog", "overflow", "executor" }) {
			expected.put("informer.delivery." + property, "informer.listeners." + property);
		}
		for (String property : new String[] { "mode", "group", "identity", "lease-namespace", "lease-duration",
				"renew-deadline", "retry-period", "server-sharding", "readiness" }) {
			expected.put("informer.delivery." + property, "informer.replicas." + property);
		}
		JsonNode metadata = new ObjectMapper().readTree(METADATA.toFile());
		Map<String, String> deprecated = new LinkedHashMap<>();
		for (JsonNode property : metadata.get("properties")) {
			String name = property.get("name").asText();
			if (name.startsWith("informer.delivery.")) {
				deprecated.put(name, property.path("deprecation").path("replacement").asText(null));
			}
		}
		assertThat(deprecated).isEqualTo(expected);
	}

	private static Map<String, Row> documented() throws IOException {
		Map<String, Row> rows = new LinkedHashMap<>();
		Matcher matcher = ROW.matcher(Files.readString(REFERENCE));
		while (matcher.find()) {
			String defaultValue = matcher.group(3).replace("`", "");
			Row previous = rows.put(matcher.group(1), new Row(matcher.group(2), defaultValue, matcher.group(4)));
			assertThat(previous).as("documented twice: %s", matcher.group(1)).isNull();
		}
		return rows;
	}

	private static String kebab(String name) {
		return name.replaceAll("([A-Z])", "-$1").toLowerCase();
	}

	private static String simpleName(Type type) {
		if (type instanceof ParameterizedType parameterized) {
			return simpleName(parameterized.getRawType()) + Arrays.stream(parameterized.getActualTypeArguments())
				.map(ConfigurationReferenceTests::simpleName)
				.collect(Collectors.joining(",", "<", ">"));
		}
		Class<?> raw = (Class<?>) type;
		if (raw == boolean.class) {
			return "Boolean";
		}
		if (raw == long.class) {
			return "Long";
		}
		return raw.getSimpleName();
	}

	record Row(String type, String defaultValue, String description) {

	}

}
