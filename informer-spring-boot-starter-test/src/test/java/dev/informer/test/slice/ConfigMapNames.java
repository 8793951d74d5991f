package dev.informer.test.slice;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.ConfigMap;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.informer.event.ResourceAddedEvent;

/**
 * A listener component, which the slice includes.
 */
@Component
public class ConfigMapNames {

	private final List<String> names = new CopyOnWriteArrayList<>();

	@EventListener
	void on(ResourceAddedEvent<ConfigMap> event) {
		this.names.add(event.getName());
	}

	public List<String> names() {
		return List.copyOf(this.names);
	}

}
