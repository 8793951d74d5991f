package dev.informer.sample;

import io.fabric8.kubernetes.api.model.ConfigMap;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.informer.event.InformerSyncedEvent;
import dev.informer.event.ResourceDeletedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;

/**
 * Logs one structured line per event.
 */
@Component
class ChangeLogger {

	private static final Log logger = LogFactory.getLog(ChangeLogger.class);

	@EventListener
	void on(ResourceEvent<?> event) {
		String type = event.getClass().getSimpleName().replace("Resource", "").replace("Event", "").toLowerCase();
		if (event instanceof ResourceUpdatedEvent<?> updated && updated.isResync()) {
			type = "resync";
		}
		if (event instanceof ResourceDeletedEvent<?> deleted && deleted.isFinalStateUnknown()) {
			type = "deleted(final state unknown)";
		}
		logger.info("informer=" + event.getInformerName() + " type=" + type + " object="
				+ ((event.getNamespace() != null) ? event.getNamespace() + "/" : "") + event.getName()
				+ " resourceVersion=" + event.getResourceVersion());
	}

	@EventListener(condition = "#event.resource.metadata.namespace == 'team-a'")
	void teamA(ResourceEvent<ConfigMap> event) {
		logger.info("team-a changed: " + event.getName());
	}

	@EventListener
	void on(InformerSyncedEvent event) {
		logger.info("informer=" + event.getInformerName() + " synced: " + event.getCacheSize() + " objects in "
				+ event.getTimeToSync().toMillis() + " ms");
	}

}
