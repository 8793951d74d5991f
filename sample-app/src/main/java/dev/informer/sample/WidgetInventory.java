package dev.informer.sample;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.informer.InformerRegistry;
import dev.informer.event.ResourceEvent;

/**
 * A listener that reads the cache: after every Widget change, counts all cached Widgets
 * by color. The cache already contains the change when its event is delivered.
 */
@Component
class WidgetInventory {

	private static final Log logger = LogFactory.getLog(WidgetInventory.class);

	private final InformerRegistry informers;

	WidgetInventory(InformerRegistry informers) {
		this.informers = informers;
	}

	@EventListener(condition = "#event.informerName == 'widgets'")
	void on(ResourceEvent<GenericKubernetesResource> event) {
		Map<String, Long> byColor = this.informers.cache("widgets", GenericKubernetesResource.class)
			.list()
			.stream()
			.collect(Collectors.groupingBy((widget) -> WidgetController.Widget.of(widget).color() + "", TreeMap::new,
					Collectors.counting()));
		logger.info("widgets in cache by color: " + byColor);
	}

}
