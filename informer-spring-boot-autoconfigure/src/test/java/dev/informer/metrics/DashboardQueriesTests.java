package dev.informer.metrics;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every query of {@code docs/grafana-dashboard.json} is valid PromQL, as Prometheus' own
 * parser ({@code promtool check rules}) sees it once Grafana has replaced the variables.
 * Needs {@code promtool} on the {@code PATH} ({@code apt-get install prometheus});
 * without it the test is skipped, unless {@code INFORMER_REQUIRE_PROMTOOL=true} (set by
 * {@code .ci/run}, which installs it), where it fails.
 */
class DashboardQueriesTests {

	private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.*),\\s*[a-zA-Z_][a-zA-Z0-9_]*\\)");

	@Test
	void everyQueryParses(@TempDir Path directory) throws IOException, InterruptedException {
		Optional<Path> promtool = promtool();
		assumeTrue(
				promtool.isPresent() || Boolean.getBoolean("INFORMER_REQUIRE_PROMTOOL")
						|| "true".equals(System.getenv("INFORMER_REQUIRE_PROMTOOL")),
				"promtool is not on the PATH (apt-get install prometheus)");
		assertThat(promtool).as("promtool on the PATH, required by INFORMER_REQUIRE_PROMTOOL").isPresent();
		List<String> queries = MonitoringAssetsTests.dashboardExpressions()
			.stream()
			.map(this::asGrafanaSendsIt)
			.toList();
		List<Map<String, String>> rules = IntStream.range(0, queries.size())
			.mapToObj((i) -> Map.of("record", "dashboard:query" + i, "expr", queries.get(i)))
			.toList();
		Path file = directory.resolve("dashboard-queries.yml");
		Files.writeString(file,
				new Yaml().dump(Map.of("groups", List.of(Map.of("name", "dashboard", "rules", rules)))));
		Process process = new ProcessBuilder(promtool.get().toString(), "check", "rules", file.toString())
			.redirectErrorStream(true)
			.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(output).isZero();
		assertThat(output).contains("SUCCESS: " + queries.size() + " rules found");
	}

	/**
	 * Replace the variables as Grafana does before it sends a query, and turn a
	 * variable's {@code label_values(selector, label)} into its selector.
	 */
	private String asGrafanaSendsIt(String query) {
		Matcher labelValues = LABEL_VALUES.matcher(query);
		String expression = labelValues.matches() ? labelValues.group(1) : query;
		return expression.replace("$__rate_interval", "2m").replaceAll("\\$[a-z_]+", ".*");
	}

	private static Optional<Path> promtool() {
		return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
			.map((directory) -> Path.of(directory, "promtool"))
			.filter(Files::isExecutable)
			.findFirst();
	}

}
