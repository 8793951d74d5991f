package dev.informer.sample;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import org.jspecify.annotations.Nullable;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.informer.InformerRegistry;
import dev.informer.ResourceCache;

/**
 * {@code GET /widgets}: the Widgets in the informer's cache. No request reaches the API
 * server; the answer is as fresh as the watch.
 */
@RestController
class WidgetController {

	private final ResourceCache<GenericKubernetesResource> widgets;

	WidgetController(InformerRegistry informers) {
		// a custom resource without a Java class is cached as GenericKubernetesResource
		this.widgets = informers.cache("widgets", GenericKubernetesResource.class);
	}

	@GetMapping("/widgets")
	List<Widget> widgets() {
		return this.widgets.list()
			.stream()
			.map(Widget::of)
			.sorted(Comparator.comparing(Widget::namespace).thenComparing(Widget::name))
			.toList();
	}

	/**
	 * What the endpoint shows of a Widget.
	 *
	 * @param namespace the namespace
	 * @param name the name
	 * @param color {@code spec.color}
	 * @param resourceVersion the resourceVersion the cache holds
	 */
	record Widget(String namespace, String name, @Nullable String color, String resourceVersion) {

		static Widget of(GenericKubernetesResource resource) {
			Object spec = resource.getAdditionalProperties().get("spec");
			Object color = (spec instanceof Map<?, ?> map) ? map.get("color") : null;
			return new Widget(resource.getMetadata().getNamespace(), resource.getMetadata().getName(),
					(color != null) ? color.toString() : null, resource.getMetadata().getResourceVersion());
		}

	}

}
