package dev.informer.runtime;

import java.time.Clock;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

import dev.informer.InformerDefinition;
import dev.informer.runtime.status.WatchStatus;

/**
 * What one watch is, for as long as it exists: the informer's definition, the namespace
 * it watches and the status it records into.
 *
 * @param <T> the resource type
 * @param definition what the informer watches
 * @param namespace the namespace, {@code null} for all namespaces or cluster scope
 * @param status the watch's status
 * @param clock the clock for status times
 */
record WatchContext<T extends HasMetadata>(InformerDefinition<T> definition, @Nullable String namespace,
		WatchStatus status, Clock clock) {

	String name() {
		return this.definition.getName();
	}

	/**
	 * Return where the watch is, for log messages: empty, or " in namespace x".
	 * @return the text
	 */
	String where() {
		return (this.namespace != null) ? " in namespace " + this.namespace : "";
	}

}
