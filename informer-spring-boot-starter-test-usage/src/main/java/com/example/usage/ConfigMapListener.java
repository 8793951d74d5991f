package com.example.usage;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.ConfigMap;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.informer.event.ResourceAddedEvent;

/**
 * Remembers the ConfigMaps it was told about, standing in for what an application does
 * with them.
 */
@Component
public class ConfigMapListener {

	private final List<String> seen = new CopyOnWriteArrayList<>();

	@EventListener
	void on(ResourceAddedEvent<ConfigMap> event) {
		this.seen.add(event.getNamespace() + "/" + event.getName());
	}

	public List<String> seen() {
		return List.copyOf(this.seen);
	}

}
