package dev.informer.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Every YAML snippet of the README and the pages of docs/ that sets {@code informer.*}
 * binds to {@link InformerProperties} without a key the starter does not know (the check
 * startup makes) and without a value of the wrong type: a snippet cannot teach a typo.
 */
class DocumentedYamlTests {

	private static final Path ROOT = Path.of("..");

	private static final Pattern YAML = Pattern.compile("(?ms)^```yaml\\n(.*?)^```");

	@Test
	void everyYamlSnippetBindsWithoutAnUnknownKey() throws IOException {
		int checked = 0;
		for (Path document : documents()) {
			Matcher matcher = YAML.matcher(Files.readString(document));
			while (matcher.find()) {
				String snippet = matcher.group(1);
				String where = ROOT.relativize(document) + ", the snippet starting \""
						+ snippet.lines().findFirst().orElse("") + "\"";
				for (PropertySource<?> source : new YamlPropertySourceLoader().load(where,
						new ByteArrayResource(snippet.getBytes(StandardCharsets.UTF_8), where))) {
					ConfigurationPropertySource properties = ConfigurationPropertySource.from(source);
					if (properties == null || !snippet.contains("informer")) {
						continue;
					}
					checked++;
					assertThat(InformerPropertyKeys.unknown(List.of(properties))).as(where)
						.extracting(UnknownInformerPropertyException::getMessage)
						.isEmpty();
					assertThatNoException().as(where)
						.isThrownBy(() -> new Binder(properties).bind("informer", InformerProperties.class));
				}
			}
		}
		assertThat(checked).as("snippets that set informer.*").isGreaterThan(5);
	}

	private static List<Path> documents() throws IOException {
		List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md"),
				ROOT.resolve("sample-app/README.md"), ROOT.resolve("sample-app/k8s/README.md")));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((file) -> file.toString().endsWith(".md")).sorted().forEach(documents::add);
		}
		return documents;
	}

}
