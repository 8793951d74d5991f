package dev.informer.autoconfigure;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One source for the measured numbers: {@code docs/benchmarks.md}. Every time and ratio
 * that the README's benchmark section and {@code docs/events.md} quote (a number, or a
 * range, followed by ns, µs, ms, s or ×) appears there, as written or, for seconds, as
 * the milliseconds the tables hold (1,719 ms quoted as 1.72 s). A re-run that changes
 * benchmarks.md without the pages that quote it fails here. The README's summary table is
 * the per-process run's own output, copied whole.
 */
class QuotedNumbersTests {

	private static final Path ROOT = Path.of("..");

	private static final String NUMBER = "\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?";

	private static final Pattern QUOTE = Pattern
		.compile("(?<![\\w.,–-])(" + NUMBER + ")(?:\\s?[–-]\\s?(" + NUMBER + "))?\\s?(ns|µs|ms|s|×)(?!\\w)");

	/** The marker before a table copied verbatim from a run's output. */
	private static final Pattern GENERATED = Pattern
		.compile("<!-- the per-process benchmark's summary, verbatim from (\\S+) -->\n\n");

	private static final Pattern TOKEN = Pattern.compile("(?<![\\w.,])(" + NUMBER + ")(?![\\d])");

	@Test
	void everyNumberTheReadmesBenchmarkSectionQuotesIsInBenchmarksMd() {
		String readme = read("README.md");
		int start = readme.indexOf("\n## Benchmarks\n");
		int end = readme.indexOf("\n## ", start + 1);
		assertThat(start).as("the README's benchmark section").isPositive();
		assertThat(unbacked(readme.substring(start, end))).isEmpty();
	}

	@Test
	void theReadmesSummaryTableIsTheOneThePerProcessRunWrote() {
		String readme = read("README.md");
		Matcher marker = GENERATED.matcher(readme);
		assertThat(marker.find()).as("a marker naming the run's per-process-summary.md").isTrue();
		String table = read(marker.group(1));
		assertThat(table).as(marker.group(1)).contains("| the starter |");
		assertThat(readme.substring(marker.end())).as("the README after the marker").startsWith(table);
		assertThat(read("docs/benchmarks.md")).as("benchmarks.md holds the same table").contains(table);
	}

	@Test
	void everyNumberTheEventsPageQuotesIsInBenchmarksMd() {
		assertThat(unbacked(read("docs/events.md"))).isEmpty();
	}

	@Test
	void aNumberNotInBenchmarksMdIsCaught() {
		assertThat(unbacked("a publish costs 83 ns, 0.0137–0.0271 ns with a condition; 1.79 s and 9.99 s; 1.22 ×"))
			.containsExactly("0.0137 ns", "0.0271 ns", "9.99 s");
	}

	private static List<String> unbacked(String text) {
		Set<String> measured = measured();
		List<String> quotes = new ArrayList<>();
		Matcher matcher = QUOTE.matcher(text);
		while (matcher.find()) {
			for (int group = 1; group <= 2; group++) {
				if (matcher.group(group) != null) {
					quotes.add(matcher.group(group) + " " + matcher.group(3));
				}
			}
		}
		assertThat(quotes).as("quoted numbers in %s", text.lines().findFirst().orElse("")).isNotEmpty();
		List<String> unbacked = new ArrayList<>();
		for (String quote : quotes) {
			String[] parts = quote.split(" ");
			if (!backed(new BigDecimal(parts[0].replace(",", "")), parts[1], measured)) {
				unbacked.add(quote);
			}
		}
		return unbacked;
	}

	private static boolean backed(BigDecimal quoted, String unit, Set<String> measured) {
		if (measured.contains(quoted.toPlainString())) {
			return true;
		}
		if (!unit.equals("s")) {
			return false;
		}
		for (String value : measured) {
			BigDecimal seconds = new BigDecimal(value).movePointLeft(3).setScale(quoted.scale(), RoundingMode.HALF_UP);
			if (seconds.compareTo(quoted) == 0) {
				return true;
			}
		}
		return false;
	}

	/** Every number in benchmarks.md, thousands separators removed. */
	private static Set<String> measured() {
		Set<String> numbers = new TreeSet<>();
		Matcher matcher = TOKEN.matcher(read("docs/benchmarks.md"));
		while (matcher.find()) {
			numbers.add(new BigDecimal(matcher.group(1).replace(",", "")).toPlainString());
		}
		return numbers;
	}

	private static String read(String file) {
		try {
			return Files.readString(ROOT.resolve(file));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
