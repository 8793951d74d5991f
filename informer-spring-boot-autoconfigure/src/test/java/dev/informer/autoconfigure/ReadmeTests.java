package dev.informer.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README and the documentation it links to back their claims with test names, and
 * link to each other. Every test class and method they name exists, so a renamed or
 * deleted test cannot leave a claim unbacked, and every relative link points to a file
 * (and heading) that exists.
 */
class ReadmeTests {

	private static final Path ROOT = Path.of("..");

	private static final Pattern TEST_REFERENCE = Pattern.compile("`(\\w+(?:Tests|IT))(?:\\.(\\w+))?`");

	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

	private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$", Pattern.MULTILINE);

	private static final Pattern FENCE = Pattern.compile("^```.*?^```", Pattern.MULTILINE | Pattern.DOTALL);

	@Test
	void everyTestTheDocumentationNamesExists() {
		Map<String, String> references = new LinkedHashMap<>();
		for (Path document : documents()) {
			Matcher matcher = TEST_REFERENCE.matcher(read(document));
			while (matcher.find()) {
				references.put(matcher.group(0),
						matcher.group(1) + "|" + ((matcher.group(2) != null) ? matcher.group(2) : ""));
			}
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

	@Test
	void everyRelativeLinkPointsToAFileAndHeadingThatExist() {
		List<String> broken = new ArrayList<>();
		for (Path document : documents()) {
			Matcher matcher = LINK.matcher(FENCE.matcher(read(document)).replaceAll(""));
			while (matcher.find()) {
				String link = matcher.group(1);
				if (link.matches("^[a-z]+:.*")) {
					continue; // http:, https:, mailto:
				}
				int hash = link.indexOf('#');
				String file = (hash >= 0) ? link.substring(0, hash) : link;
				Path target = file.isEmpty() ? document : document.getParent().resolve(file).normalize();
				if (!Files.exists(target)) {
					broken.add(ROOT.relativize(document) + ": " + link);
				}
				else if (hash >= 0 && !anchors(target).contains(link.substring(hash + 1))) {
					broken.add(ROOT.relativize(document) + ": " + link + " (no such heading)");
				}
			}
		}
		assertThat(broken).isEmpty();
	}

	@Test
	void theReadmeLeadsFromTheTwoCommandsToAListenerInItsFirstScreen() {
		String readme = read(ROOT.resolve("README.md"));
		int declaration = readme.indexOf("```yaml");
		int listener = readme.indexOf("@EventListener\n");
		assertThat(readme.indexOf("\nscripts/test\n")).as("the test command").isPositive().isLessThan(declaration);
		assertThat(readme.substring(0, listener).lines().count()).as("lines before the first listener").isLessThan(60);
	}

	@Test
	void ciRunsExactlyTheReadmesTestCommandWithTheRealServerRequired() {
		List<String> commands = read(ROOT.resolve(".ci/run")).lines()
			.filter((line) -> !line.isBlank() && !line.startsWith("#"))
			.toList();
		// other checks may run beside it, but the
		// tests run through the README's command only
		assertThat(commands).contains("export INFORMER_REQUIRE_APISERVER=true", "scripts/test")
			.noneMatch((command) -> command.contains("mvnw") || command.contains("envtest.sh"));
		assertThat(read(ROOT.resolve("scripts/test"))).contains("bash scripts/envtest.sh")
			.contains("exec ./mvnw -B verify \"$@\"");
	}

	/**
	 * The README's declaration, listener and test are the files of the user's project the
	 * build runs (informer-spring-boot-starter-test-usage), so the pair compiles and
	 * passes; docs/testing.md shows the same.
	 */
	@Test
	void theReadmesDeclarationListenerAndTestAreAUserProjectsFiles() {
		Path usage = ROOT.resolve("informer-spring-boot-starter-test-usage/src");
		List<String> files = List.of(read(usage.resolve("main/resources/application.yml")),
				withoutPackage(read(usage.resolve("main/java/com/example/usage/ConfigMapListener.java"))),
				withoutPackage(
						read(usage.resolve("test/java/com/example/usage/ConfigMapListenerMockServerTests.java"))));
		for (Path document : List.of(ROOT.resolve("README.md"), ROOT.resolve("docs/testing.md"))) {
			List<String> blocks = fencedBlocks(read(document));
			for (String file : files) {
				assertThat(blocks).as("a block of %s equal to %s", document, file.lines().findFirst().orElse(""))
					.contains(file);
			}
		}
	}

	/**
	 * The time the envtest build takes is quoted alike wherever it is quoted: the one
	 * CONTRIBUTING.md measured, about 10 minutes for the whole build (about 5 with
	 * --core-only).
	 */
	@Test
	void theEnvtestBuildTimeIsQuotedAsMeasured() {
		Matcher measured = Pattern
			.compile("first build (\\d+) min (\\d+) s for kube-apiserver, kubectl and etcd[^;]*; the control "
					+ "plane's binaries add (\\d+) min (\\d+) s")
			.matcher(read(ROOT.resolve("CONTRIBUTING.md")).replaceAll("\\s+", " "));
		assertThat(measured.find()).as("the measurement in CONTRIBUTING.md").isTrue();
		int core = Integer.parseInt(measured.group(1)) * 60 + Integer.parseInt(measured.group(2));
		int all = core + Integer.parseInt(measured.group(3)) * 60 + Integer.parseInt(measured.group(4));
		Pattern quote = Pattern.compile("about (\\d+) minutes");
		for (String file : List.of("README.md", "CONTRIBUTING.md", "docs/testing.md",
				"informer-spring-boot-starter-test/src/main/java/dev/informer/test/RealApiServer.java",
				"informer-spring-boot-starter-test/src/main/java/dev/informer/test/ControlPlane.java",
				"informer-spring-boot-autoconfigure/src/test/java/dev/informer/it/RealApiServer.java")) {
			String text = read(ROOT.resolve(file)).replaceAll("\\s+", " ");
			Matcher matcher = quote.matcher(text);
			while (matcher.find()) {
				String around = text.substring(Math.max(0, matcher.start() - 120),
						Math.min(text.length(), matcher.end() + 120));
				if (!around.contains("envtest") && !around.contains("Go")) {
					continue;
				}
				boolean coreOnly = around.contains("core-only") && !around.contains("without --core-only");
				int expected = (coreOnly ? core : all) / 60;
				assertThat(Integer.parseInt(matcher.group(1))).as("%s: ...%s...", file, around).isEqualTo(expected);
			}
		}
	}

	private static String withoutPackage(String source) {
		return source.replaceFirst("^package [\\w.]+;\n\n", "");
	}

	private static List<String> fencedBlocks(String markdown) {
		List<String> blocks = new ArrayList<>();
		Matcher matcher = Pattern.compile("(?ms)^```[a-z]*\n(.*?)^```").matcher(markdown);
		while (matcher.find()) {
			blocks.add(matcher.group(1));
		}
		return blocks;
	}

	private static List<Path> documents() {
		List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md"),
				ROOT.resolve("sample-app/README.md"), ROOT.resolve("sample-app/k8s/README.md")));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((file) -> file.toString().endsWith(".md")).sorted().forEach(documents::add);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		return documents;
	}

	/**
	 * The anchors GitHub derives from the headings of a Markdown file: lower case,
	 * punctuation other than {@code -} and {@code _} removed, blanks turned into
	 * {@code -}.
	 */
	private static List<String> anchors(Path file) {
		List<String> anchors = new ArrayList<>();
		if (!file.toString().endsWith(".md")) {
			return anchors;
		}
		Matcher matcher = HEADING.matcher(FENCE.matcher(read(file)).replaceAll(""));
		while (matcher.find()) {
			anchors.add(matcher.group(1)
				.trim()
				.toLowerCase(Locale.ROOT)
				.replaceAll("[^\\p{L}\\p{N} _-]", "")
				.replace(' ', '-'));
		}
		return anchors;
	}

	private static Optional<Path> testSource(String className) {
		for (String module : new String[] { "informer-spring-boot-autoconfigure", "informer-spring-boot-starter-test",
				"informer-spring-boot-starter-test-usage", "informer-spring-cloud-kubernetes-usage", "sample-app",
				"benchmarks" }) {
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
