package dev.informer.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README backs its claims with test names; every test class and method it names exists,
 * so a renamed or deleted test cannot leave a claim unbacked.
 */
class ReadmeTests {

	private static final Path ROOT = Path.of("..");

	private static final Pattern TEST_REFERENCE = Pattern.compile("`(\\w+(?:Tests|IT))(?:\\.(\\w+))?`");

	@Test
	void everyTestTheReadmeNamesExists() throws IOException {
		String readme = Files.readString(ROOT.resolve("README.md"))
				+ Files.readString(ROOT.resolve("docs/reliability.md"));
		Map<String, String> references = new LinkedHashMap<>();
		Matcher matcher = TEST_REFERENCE.matcher(readme);
		while (matcher.find()) {
			references.put(matcher.group(0), matcher.group(1) + "|" + ((matcher.group(2) != null) ? matcher.group(2) : ""));
		}
		assertThat(references).hasSizeGreaterThan(10);
		references.forEach((reference, parts) -> {
			String[] split = parts.split("\\|", -1);
			Optional<Path> source = testSource(split[0]);
			assertThat(source).as("test class of %s", reference).isPresent();
			if (!split[1].isEmpty()) {
				assertThat(read(source.get())).as("test method of %s", reference)
					.containsPattern("void " + split[1] + "\\(");
			}
		});
	}

	private static Optional<Path> testSource(String className) {
		for (String module : new String[] { "informer-spring-boot-autoconfigure", "sample-app", "benchmarks" }) {
			try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src/test/java"))) {
				Optional<Path> found = files.filter((file) -> file.getFileName().toString().equals(className + ".java"))
					.findFirst();
				if (found.isPresent()) {
					return found;
				}
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}
		return Optional.empty();
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
