package dev.informer.test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code informer.test.*} properties have IDE metadata: the configuration
 * processor's, from {@link InformerTestProperties}, with a description each.
 */
class InformerTestPropertiesMetadataTests {

	@Test
	void everyPropertyHasADescription() throws IOException {
		List<JsonNode> properties = new ArrayList<>();
		for (URL url : Collections
			.list(getClass().getClassLoader().getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				new ObjectMapper().readTree(in).path("properties").forEach((property) -> {
					if (property.path("name").asText().startsWith("informer.test.")) {
						properties.add(property);
					}
				});
			}
		}
		assertThat(properties).extracting((property) -> property.path("name").asText())
			.containsExactlyInAnyOrder("informer.test.server", "informer.test.namespace", "informer.test.manifests",
					"informer.test.restricted", "informer.test.restricted-ungranted-informers");
		assertThat(properties).allSatisfy((property) -> assertThat(property.path("description").asText()).isNotBlank());
		assertThat(properties).filteredOn((property) -> property.path("name").asText().equals("informer.test.server"))
			.singleElement()
			.satisfies((property) -> {
				assertThat(property.path("type").asText()).isEqualTo("dev.informer.test.InformerTest$Server");
				assertThat(property.path("defaultValue").asText()).isEqualTo("auto");
			});
	}

}
