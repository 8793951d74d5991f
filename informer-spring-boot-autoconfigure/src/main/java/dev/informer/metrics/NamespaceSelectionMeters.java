package dev.informer.metrics;

import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import dev.informer.watch.RelistReason;
import dev.informer.watch.Watch;
import dev.informer.watch.WatchedInformer;

/**
 * The meters of the watch on Namespaces behind an informer's {@code namespace-selector},
 * tagged with {@code informer} and {@code selector}. Informers declared with the same
 * selector share that watch, so each of them shows the same values. Read when scraped,
 * from one snapshot of the watch per scrape: the watch exists from the informer's start,
 * and before it the meters read 0.
 * <ul>
 * <li>{@code informer.namespace.selection.watching}: whether the watch is open (1) or not
 * (0)</li>
 * <li>{@code informer.namespace.selection.synced}: whether its initial list
 * completed</li>
 * <li>{@code informer.namespace.selection.namespaces}: the namespaces matching</li>
 * <li>{@code informer.namespace.selection.reconnects}: watches lost after the sync</li>
 * <li>{@code informer.namespace.selection.relists}, tag {@code reason}: lists after the
 * initial one, replacements included</li>
 * </ul>
 */
final class NamespaceSelectionMeters {

	private NamespaceSelectionMeters() {
	}

	static void bind(MeterRegistry meters, WatchedInformer<?> informer) {
		String selector = informer.getDefinition().getDeclaration().getNamespaceSelector();
		if (selector == null) {
			return;
		}
		Tags tags = Tags.of("informer", informer.getName(), "selector", selector);
		ScrapeSnapshot scrape = new ScrapeSnapshot(meters.config().clock());
		Gauge
			.builder("informer.namespace.selection.watching", informer,
					read(scrape.value((snapshot) -> snapshot.connection().watching() ? 1 : 0)))
			.description("Whether the watch on Namespaces of the namespace-selector is open (1) or not (0)")
			.tags(tags)
			.register(meters);
		Gauge
			.builder("informer.namespace.selection.synced", informer,
					read(scrape.value((snapshot) -> snapshot.lifecycle().isSynced() ? 1 : 0)))
			.description("Whether the initial list of Namespaces of the namespace-selector completed (1) or not (0)")
			.tags(tags)
			.register(meters);
		Gauge
			.builder("informer.namespace.selection.namespaces", informer,
					read(scrape.value((snapshot) -> snapshot.cache().size())))
			.description("Namespaces matching the namespace-selector")
			.tags(tags)
			.register(meters);
		FunctionCounter
			.builder("informer.namespace.selection.reconnects", informer,
					read(scrape.value((snapshot) -> snapshot.connection().reconnects())))
			.description("Watches on Namespaces of the namespace-selector lost after the sync")
			.tags(tags)
			.register(meters);
		for (RelistReason reason : InformerMetrics.RELIST_REASONS) {
			FunctionCounter
				.builder("informer.namespace.selection.relists", informer,
						read(scrape.value((snapshot) -> snapshot.lists().relistCount(reason))))
				.description("Lists of Namespaces of the namespace-selector after the initial one")
				.tags(tags)
				.tag("reason", reason.tagValue())
				.register(meters);
		}
	}

	private static ToDoubleFunction<WatchedInformer<?>> read(ToDoubleFunction<Watch> value) {
		return (informer) -> {
			Watch watch = informer.getNamespaceWatch();
			return (watch != null) ? value.applyAsDouble(watch) : 0;
		};
	}

}
