package com.example.usage;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.Pod;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;

/**
 * Keeps the Pods that run, as a dashboard of an application's workers would: a Pod joins
 * when its phase becomes {@code Running} and leaves when it stops running or is deleted.
 * Pods run only where something schedules and starts them: in a cluster, or on the test
 * starter's control plane.
 */
@Component
public class RunningPodsListener {

	private final Set<String> running = ConcurrentHashMap.newKeySet();

	@EventListener
	void on(ResourceEvent<Pod> event) {
		String key = event.getNamespace() + "/" + event.getName();
		Pod pod = event.getResource();
		if (!(event instanceof ResourceDeletedEvent<?>) && pod.getStatus() != null
				&& "Running".equals(pod.getStatus().getPhase())) {
			this.running.add(key);
		}
		else {
			this.running.remove(key);
		}
	}

	public Set<String> running() {
		return Set.copyOf(this.running);
	}

}
