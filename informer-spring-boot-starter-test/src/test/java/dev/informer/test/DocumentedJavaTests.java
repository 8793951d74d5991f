package dev.informer.test;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Java snippet of the README and the pages of docs/ compiles, as it stands and with
 * the imports it shows, against the starter, the test starter, Spring Boot's test support
 * and actuator: each is a compilation unit a user can paste, beside the snippets before
 * it on its page and the classes of the user's project whose tests the pages show.
 */
class DocumentedJavaTests {

	private static final Path ROOT = Path.of("..");

	private static final Pattern JAVA = Pattern.compile("(?ms)^```java\\n(.*?)^```");

	/**
	 * The user's project whose classes the snippets of its tests use (the README's
	 * listener and its test are its files).
	 */
	private static final Path USER_PROJECT = ROOT.resolve("informer-spring-boot-starter-test-usage/src/main/java");

	private static final Pattern NAMED_TYPE = Pattern
		.compile("(?m)^(?:final\\s+|abstract\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)");

	private static final Pattern PUBLIC_TYPE = Pattern
		.compile("(?m)^public\\s+(?:final\\s+|abstract\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)");

	@Test
	void everyJavaSnippetCompiles(@TempDir Path directory) throws IOException {
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<String> failures = new ArrayList<>();
		int compiled = 0;
		for (Path document : documents()) {
			// a page's snippets build on each other (a test of the listener shown before
			// it)
			List<Path> earlier = new ArrayList<>();
			Matcher matcher = JAVA.matcher(Files.readString(document));
			int index = 0;
			while (matcher.find()) {
				index++;
				String snippet = matcher.group(1);
				Matcher type = PUBLIC_TYPE.matcher(snippet);
				Matcher named = NAMED_TYPE.matcher(snippet);
				String name = type.find() ? type.group(1) : (named.find() ? named.group(1) : "Snippet" + index);
				Path source = directory.resolve("snippet" + compiled).resolve(name + ".java");
				Files.createDirectories(source.getParent());
				Files.writeString(source, snippet);
				List<Path> sources = new ArrayList<>(earlier);
				sources.add(source);
				StringWriter output = new StringWriter();
				boolean ok = compiler
					.getTask(output, null, null,
							List.of("-classpath", classpath, "-sourcepath", USER_PROJECT.toString(), "-proc:none",
									"-implicit:none", "-d", source.getParent().resolve("classes").toString()),
							null,
							compiler.getStandardFileManager(null, null, null).getJavaFileObjectsFromPaths(sources))
					.call();
				compiled++;
				if (ok) {
					earlier.add(source);
				}
				else {
					failures.add(ROOT.relativize(document) + ", Java snippet " + index + " (\""
							+ snippet.lines().findFirst().orElse("") + "\"):\n" + output);
				}
			}
		}
		assertThat(compiled).as("Java snippets").isGreaterThan(10);
		assertThat(failures).isEmpty();
	}

	private static List<Path> documents() throws IOException {
		List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md"),
				ROOT.resolve("sample-app/README.md")));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((file) -> file.toString().endsWith(".md")).sorted().forEach(documents::add);
		}
		return documents;
	}

}
