package com.example.usage;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceUpdatedEvent;

@Component
public class ConfigMapListener {

	private static final Log logger = LogFactory.getLog(ConfigMapListener.class);

	private final List<String> seen = new CopyOnWriteArrayList<>();

	@EventListener
	void on(ResourceAddedEvent<ConfigMap> event) {
		this.seen.add(event.getNamespace() + "/" + event.getName());
	}

	@EventListener
	void on(ResourceUpdatedEvent<ConfigMap> event) {
		logger.info(event.getName() + " changed: " + event.getOldResource().getData() + " -> "
				+ event.getResource().getData());
	}

	public List<String> seen() {
		return List.copyOf(this.seen);
	}

}
