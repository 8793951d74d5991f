package dev.informer.metrics;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
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

import dev.informer.DeliveryMode;
import dev.informer.DeliveryRole;
import dev.informer.runtime.DefaultInformerRegistry;
import dev.informer.runtime.ResourceInformer;
import dev.informer.runtime.TestWatches;
import dev.informer.runtime.listeners.InformerEventPublisher;
import dev.informer.test.MutableClock;
import dev.informer.watch.DeliverySnapshot;
import dev.informer.watch.DeliveryStatusSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/grafana-dashboard.json} and {@code docs/prometheus-alerts.yml} parse, and
 * every metric and label they use is one the starter exports (scraped from a Prometheus
 * registry that {@link InformerMetrics} and {@link DeliveryMetrics} are bound to) or one
 * the scrape adds; the dashboard never adds replicas together; every alert has a runbook
 * section and a unit test that makes it fire. {@link DashboardQueriesTests} has promtool
 * parse the dashboard's queries.
 */
class MonitoringAssetsTests {

	/**
	 * Labels Prometheus' Kubernetes service discovery or the Prometheus Operator give
	 * every target: a scraped label of one of these names is renamed {@code exported_…}.
	 */
	static final Set<String> TARGET_LABELS = Set.of("namespace", "pod", "container", "service", "endpoint", "job",
			"instance");

	/**
	 * Labels a query may use besides the exported ones: the target's, and
	 * {@code application}, the common tag Spring Boot applications usually set
	 * ({@code management.metrics.tags.application}).
	 */
	private static final Set<String> SCRAPE_LABELS = union(TARGET_LABELS, Set.of("application"));

	static final Path DOCS = Path.of("../docs");

	private static final Pattern METRIC = Pattern.compile("\\binformer_[a-z_]+\\b");

	private static final Pattern EXPORTED_LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"");

	private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"([^\"]*)\"");

	private static final Pattern GROUPING = Pattern.compile("\\b(by|on|without|ignoring)\\s*\\(([^)]*)\\)");

	private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.*),\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\)");

	private static final Pattern TEMPLATE_LABEL = Pattern.compile("\\$labels\\.([a-zA-Z_][a-zA-Z0-9_]*)");

	private static final String RUNBOOKS = "https://github.com/informer-dev/informer-spring-boot-starter/blob/main/docs/troubleshooting.md#";

	private static Set<String> exported;

	private static Set<String> exportedLabels;

	@BeforeAll
	static void scrape() {
		MutableClock clock = MutableClock.startingAt("2026-01-01T00:00:00Z");
		ResourceInformer<ConfigMap> informer = TestWatches.configMaps(clock, new InformerEventPublisher(),
				Duration.ofMinutes(5), "team-a");
		PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ResourceInformer<ConfigMap> selected = TestWatches.selectedConfigMaps(clock, "tenant=acme");
		new InformerMetrics(new DefaultInformerRegistry(List.of(informer, selected))).bindTo(prometheus);
		new DeliveryMetrics(bothModes()).bindTo(prometheus);
		exported = new TreeSet<>();
		exportedLabels = new TreeSet<>();
		for (String line : prometheus.scrape().split("\n")) {
			if (!line.isBlank() && !line.startsWith("#")) {
				exported.add(line.split("[{ ]", 2)[0]);
				Matcher label = EXPORTED_LABEL.matcher(line);
				while (label.find()) {
					exportedLabels.add(label.group(1));
				}
			}
		}
	}

	private static DeliveryStatusSource bothModes() {
		Instant now = Instant.parse("2026-01-01T00:00:00Z");
		DeliverySnapshot snapshot = new DeliverySnapshot("orders", "pod-a", "apps",
				Map.of("configmaps", DeliveryMode.LEADER, "secrets", DeliveryMode.SHARDED),
				new DeliverySnapshot.Leadership(DeliveryRole.LEADER, "orders", "pod-a", now, now, 1),
				new DeliverySnapshot.Sharding(DeliveryRole.MEMBER, "orders-pod-a", List.of("pod-a"), List.of("r"),
						false, now, 1),
				now);
		return new DeliveryStatusSource() {

			@Override
			public DeliverySnapshot snapshot() {
				return snapshot;
			}

			@Override
			public long ownedObjects() {
				return 1;
			}

		};
	}

	@Test
	void scrapeHasTheDocumentedNames() {
		assertThat(exported).contains("informer_events_total", "informer_watching", "informer_synced",
				"informer_backlog_events", "informer_listener_duration_seconds_count",
				"informer_event_last_timestamp_seconds", "informer_resync_last_timestamp_seconds",
				"informer_delivery_leader", "informer_delivery_handovers_total", "informer_delivery_members",
				"informer_delivery_range_changes_total", "informer_delivery_owned_objects",
				"informer_delivery_tombstones_objects", "informer_delivery_tombstones_dropped_total",
				"informer_delivery_missed_changes_objects", "informer_delivery_missed_overflows_total",
				"informer_delivery_stepped_down", "informer_delivery_step_downs_total",
				"informer_namespace_selection_watching", "informer_namespace_selection_synced",
				"informer_namespace_selection_namespaces", "informer_namespace_selection_reconnects_total",
				"informer_namespace_selection_relists_total");
	}

	/**
	 * Every Prometheus name the README and the pages of docs/ mention is one a scrape
	 * shows (a timer or distribution by its base name, whose series add {@code _count},
	 * {@code _sum} and {@code _max}), except the names of earlier releases their
	 * migration notes give, which a scrape must no longer show.
	 */
	@Test
	void everyMeterNameTheDocsMentionIsOneAScrapeShows() throws IOException {
		Set<String> renamed = Set.of("informer_resync_last_seconds", "informer_event_last_seconds");
		List<Path> pages = new ArrayList<>(
				List.of(DOCS.resolve("../README.md"), DOCS.resolve("../sample-app/README.md")));
		try (var docs = Files.list(DOCS)) {
			docs.filter((page) -> page.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		for (Path page : pages) {
			Matcher metric = METRIC.matcher(Files.readString(page));
			while (metric.find()) {
				String name = metric.group();
				if (renamed.contains(name)) {
					assertThat(exported).as("a former name in %s", page).doesNotContain(name);
				}
				else {
					assertThat(exported).as("%s in %s", name, page.normalize()).containsAnyOf(name, name + "_count");
				}
			}
		}
	}

	@Test
	void noExportedLabelIsATargetLabel() {
		assertThat(exportedLabels).contains("informer", "k8s_namespace_name", "type", "reason", "group", "mode")
			.doesNotContainAnyElementsOf(TARGET_LABELS);
	}

	@Test
	void dashboardUsesOnlyExportedMetricsAndCoversDelivery() throws IOException {
		Set<String> used = metrics(dashboardExpressions());
		assertThat(exported).containsAll(used);
		assertThat(used).contains("informer_watching", "informer_synced", "informer_events_total",
				"informer_watch_reconnects_total", "informer_relists_total", "informer_resync_duration_seconds_sum",
				"informer_resync_last_timestamp_seconds", "informer_event_last_timestamp_seconds",
				"informer_backlog_events", "informer_listener_duration_seconds_sum",
				"informer_listener_duration_seconds_max");
		assertThat(used)
			.containsAll(exported.stream().filter((name) -> name.startsWith("informer_delivery_")).toList());
	}

	@Test
	void dashboardFiltersEveryQueryByItsVariablesOnTheirOwnLabels() throws IOException {
		JsonNode dashboard = dashboard();
		Map<String, String> variableLabels = new HashMap<>();
		for (JsonNode variable : dashboard.at("/templating/list")) {
			if (variable.path("type").asText().equals("query")) {
				Matcher labelValues = LABEL_VALUES.matcher(variable.get("query").asText());
				assertThat(labelValues.matches()).as(variable.get("query").asText()).isTrue();
				variableLabels.put(variable.get("name").asText(), labelValues.group(2));
			}
		}
		assertThat(variableLabels).containsEntry("job", "job")
			.containsEntry("application", "application")
			.containsEntry("pod", "pod")
			.containsEntry("informer", "informer")
			.containsEntry("watched_namespace", "k8s_namespace_name");
		for (String expression : dashboardExpressions()) {
			assertThat(labels(expression)).as(expression).isSubsetOf(union(exportedLabels, SCRAPE_LABELS));
			Matcher matcher = MATCHER.matcher(expression);
			while (matcher.find()) {
				if (matcher.group(3).startsWith("$")) {
					String variable = matcher.group(3).substring(1);
					assertThat(matcher.group(1)).as("%s in %s", matcher.group(), expression)
						.isEqualTo(variableLabels.get(variable));
				}
			}
			if (!expression.startsWith("label_values")) {
				assertThat(expression).as("filtered by replica").contains("pod=~\"$pod\"", "job=~\"$job\"");
			}
		}
	}

	@Test
	void dashboardNeverAddsReplicasTogether() throws IOException {
		for (String expression : dashboardExpressions()) {
			Matcher grouping = GROUPING.matcher(expression);
			while (grouping.find()) {
				Set<String> by = Set.of(grouping.group(2).replace(" ", "").split(","));
				boolean perReplica = by.contains("pod");
				boolean perDeliveryGroup = by.containsAll(Set.of("namespace", "job", "group"))
						&& metrics(List.of(expression)).stream()
							.allMatch((name) -> name.startsWith("informer_delivery_"));
				assertThat(grouping.group(1)).as(expression).isEqualTo("by");
				assertThat(perReplica || perDeliveryGroup).as("%s in %s", grouping.group(), expression).isTrue();
			}
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void everyAlertUsesExportedNamesAndHasADescriptionAndARunbook() throws IOException {
		String troubleshooting = Files.readString(DOCS.resolve("troubleshooting.md"));
		List<Map<String, Object>> rules = alertRules();
		assertThat(rules).hasSizeGreaterThanOrEqualTo(10);
		for (Map<String, Object> rule : rules) {
			String expression = rule.get("expr").toString();
			assertThat(exported).as(expression).containsAll(metrics(List.of(expression)));
			assertThat(labels(expression)).as(expression).isSubsetOf(union(exportedLabels, SCRAPE_LABELS));
			Matcher grouping = GROUPING.matcher(expression);
			while (grouping.find()) {
				assertThat(grouping.group(2)).as("%s groups by job", rule.get("alert")).contains("job");
			}
			assertThat((Map<String, Object>) rule.get("labels")).containsKey("severity");
			Map<String, Object> annotations = (Map<String, Object>) rule.get("annotations");
			assertThat(annotations).containsKeys("summary", "description", "runbook_url");
			for (Object text : annotations.values()) {
				assertThat(labels(TEMPLATE_LABEL, text.toString())).as(text.toString())
					.isSubsetOf(resultLabels(expression));
			}
			String anchor = rule.get("alert").toString().toLowerCase(Locale.ROOT);
			assertThat(annotations.get("runbook_url")).isEqualTo(RUNBOOKS + anchor);
			assertThat(troubleshooting).as("a section for %s", rule.get("alert"))
				.contains("\n### " + rule.get("alert") + "\n");
		}
		assertThat(metrics(rules.stream().map((rule) -> rule.get("expr").toString()).toList())).as("delivery alerts")
			.contains("informer_delivery_leader", "informer_delivery_members", "informer_delivery_owned_objects");
	}

	@Test
	@SuppressWarnings("unchecked")
	void everyAlertHasAUnitTestThatMakesItFire() throws IOException {
		Map<String, Object> tests;
		try (Reader reader = Files.newBufferedReader(DOCS.resolve("prometheus-alerts.test.yml"))) {
			tests = new Yaml().load(reader);
		}
		assertThat((List<String>) tests.get("rule_files")).containsExactly("prometheus-alerts.yml");
		Set<String> fired = new TreeSet<>();
		for (Map<String, Object> test : (List<Map<String, Object>>) tests.get("tests")) {
			for (Map<String, Object> check : (List<Map<String, Object>>) test.get("alert_rule_test")) {
				if (!((List<?>) check.get("exp_alerts")).isEmpty()) {
					fired.add(check.get("alertname").toString());
				}
			}
		}
		assertThat(fired).containsExactlyInAnyOrderElementsOf(
				alertRules().stream().map((rule) -> rule.get("alert").toString()).toList());
	}

	/**
	 * Return every query of the dashboard: its panels' and its variables'.
	 * @return the queries
	 * @throws IOException if the dashboard cannot be read
	 */
	static List<String> dashboardExpressions() throws IOException {
		JsonNode dashboard = dashboard();
		assertThat(dashboard.path("title").asText()).isNotBlank();
		assertThat(dashboard.path("uid").asText()).isNotBlank();
		List<String> expressions = new ArrayList<>();
		for (JsonNode panel : dashboard.get("panels")) {
			assertThat(panel.path("title").asText()).isNotBlank();
			if (panel.path("type").asText().equals("row")) {
				continue;
			}
			assertThat(panel.get("targets")).as("targets of %s", panel.path("title")).isNotEmpty();
			panel.get("targets").forEach((target) -> expressions.add(target.get("expr").asText()));
		}
		dashboard.at("/templating/list").forEach((variable) -> {
			if (variable.has("query") && variable.path("type").asText().equals("query")) {
				expressions.add(variable.get("query").asText());
			}
		});
		return expressions;
	}

	@SuppressWarnings("unchecked")
	static List<Map<String, Object>> alertRules() throws IOException {
		Map<String, Object> rules;
		try (Reader reader = Files.newBufferedReader(DOCS.resolve("prometheus-alerts.yml"))) {
			rules = new Yaml().load(reader);
		}
		List<Map<String, Object>> all = new ArrayList<>();
		for (Map<String, Object> group : (List<Map<String, Object>>) rules.get("groups")) {
			assertThat(group).containsKey("name");
			for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
				assertThat(rule).containsKeys("alert", "expr");
				all.add(rule);
			}
		}
		return all;
	}

	private static JsonNode dashboard() throws IOException {
		return new ObjectMapper().readTree(DOCS.resolve("grafana-dashboard.json").toFile());
	}

	/**
	 * The labels an alert's series may have: those it groups by, or, without grouping,
	 * any label of the series.
	 */
	private static Set<String> resultLabels(String expression) {
		Set<String> grouped = new TreeSet<>();
		Matcher grouping = GROUPING.matcher(expression);
		while (grouping.find()) {
			for (String label : grouping.group(2).split(",")) {
				grouped.add(label.strip());
			}
		}
		return grouped.isEmpty() ? union(exportedLabels, SCRAPE_LABELS) : grouped;
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

	/**
	 * The labels an expression matches on or groups by.
	 */
	private static Set<String> labels(String expression) {
		Set<String> labels = labels(MATCHER, expression);
		Matcher grouping = GROUPING.matcher(expression);
		while (grouping.find()) {
			for (String label : grouping.group(2).split(",")) {
				if (!label.isBlank()) {
					labels.add(label.strip());
				}
			}
		}
		Matcher labelValues = LABEL_VALUES.matcher(expression);
		if (labelValues.matches()) {
			labels.add(labelValues.group(2));
		}
		return labels;
	}

	private static Set<String> labels(Pattern pattern, String text) {
		Set<String> labels = new TreeSet<>();
		Matcher matcher = pattern.matcher(text);
		while (matcher.find()) {
			labels.add(matcher.group(1));
		}
		return labels;
	}

	private static Set<String> union(Set<String> one, Set<String> other) {
		Set<String> union = new TreeSet<>(one);
		union.addAll(other);
		return union;
	}

}
