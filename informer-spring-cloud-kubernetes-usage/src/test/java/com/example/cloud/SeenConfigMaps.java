package com.example.cloud;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.ConfigMap;

import org.springframework.context.event.EventListener;

import dev.informer.event.ResourceAddedEvent;

/**
 * The application's listener: the names of the ConfigMaps added.
 */
public class SeenConfigMaps {

	private final List<String> names = new CopyOnWriteArrayList<>();

	@EventListener
	void on(ResourceAddedEvent<ConfigMap> event) {
		this.names.add(event.getName());
	}

	/**
	 * Return the names seen so far.
	 * @return the names
	 */
	public List<String> names() {
		return this.names;
	}

}
