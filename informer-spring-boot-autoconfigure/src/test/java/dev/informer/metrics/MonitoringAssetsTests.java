package dev.informer.metrics;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.InformerEventPublisher;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.TestWatches;
import dev.informer.test.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/grafana-dashboard.json} and {@code docs/prometheus-alerts.yml} parse, and
 * every metric they use is one the starter exports: the names are scraped from a
 * Prometheus registry that {@link InformerMetrics} is bound to.
 */
class MonitoringAssetsTests {

	private static final Path DOCS = Path.of("../docs");

	private static final Pattern METRIC = Pattern.compile("\\binformer_[a-z_]+\\b");

	private static Set<String> exported;

	@BeforeAll
	static void scrape() {
		MutableClock clock = MutableClock.startingAt("2026-01-01T00:00:00Z");
		ResourceInformer<ConfigMap> informer = TestWatches.configMaps(clock, new InformerEventPublisher(),
				Duration.ofMinutes(5), "team-a");
		PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ResourceInformer<ConfigMap> selected = TestWatches.selectedConfigMaps(clock, "tenant=acme");
		new InformerMetrics(new DefaultInformerRegistry(List.of(informer, selected)), clock).bindTo(prometheus);
		exported = new TreeSet<>();
		for (String line : prometheus.scrape().split("\n")) {
			if (!line.isBlank() && !line.startsWith("#")) {
				exported.add(line.split("[{ ]", 2)[0]);
			}
		}
	}

	@Test
	void scrapeHasTheDocumentedNames() {
		assertThat(exported).contains("informer_events_total", "informer_watching", "informer_synced",
				"informer_backlog_events", "informer_listener_duration_seconds_count",
				"informer_namespace_selection_watching", "informer_namespace_selection_synced",
				"informer_namespace_selection_namespaces", "informer_namespace_selection_reconnects_total",
				"informer_namespace_selection_relists_total");
	}

	@Test
	void dashboardParsesAndUsesOnlyExportedMetrics() throws IOException {
		JsonNode dashboard = new ObjectMapper().readTree(DOCS.resolve("grafana-dashboard.json").toFile());
		assertThat(dashboard.path("title").asText()).isNotBlank();
		assertThat(dashboard.path("uid").asText()).isNotBlank();
		List<String> expressions = new ArrayList<>();
		for (JsonNode panel : dashboard.get("panels")) {
			assertThat(panel.path("title").asText()).isNotBlank();
			assertThat(panel.get("targets")).as("targets of %s", panel.path("title")).isNotEmpty();
			panel.get("targets").forEach((target) -> expressions.add(target.get("expr").asText()));
		}
		dashboard.at("/templating/list").forEach((variable) -> {
			if (variable.has("query") && variable.path("type").asText().equals("query")) {
				expressions.add(variable.get("query").asText());
			}
		});
		Set<String> used = metrics(expressions);
		assertThat(exported).containsAll(used);
		// what the dashboard is for
		assertThat(used).contains("informer_watching", "informer_synced", "informer_events_total",
				"informer_watch_reconnects_total", "informer_relists_total", "informer_resync_duration_seconds_sum",
				"informer_resync_last_seconds", "informer_backlog_events", "informer_listener_duration_seconds_sum",
				"informer_listener_duration_seconds_max");
	}

	@Test
	@SuppressWarnings("unchecked")
	void alertsParseAndUseOnlyExportedMetrics() throws IOException {
		Map<String, Object> rules;
		try (Reader reader = Files.newBufferedReader(DOCS.resolve("prometheus-alerts.yml"))) {
			rules = new Yaml().load(reader);
		}
		List<String> expressions = new ArrayList<>();
		for (Map<String, Object> group : (List<Map<String, Object>>) rules.get("groups")) {
			assertThat(group).containsKey("name");
			for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
				assertThat(rule).containsKeys("alert", "expr");
				assertThat((Map<String, Object>) rule.get("annotations")).containsKey("summary");
				expressions.add(rule.get("expr").toString());
			}
		}
		assertThat(expressions).isNotEmpty();
		assertThat(exported).containsAll(metrics(expressions));
	}

	private static Set<String> metrics(List<String> expressions) {
		Set<String> names = new TreeSet<>();
		for (String expression : expressions) {
			Matcher matcher = METRIC.matcher(expression);
			while (matcher.find()) {
				names.add(matcher.group());
			}
		}
		return names;
	}

}
