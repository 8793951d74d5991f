package dev.informer.runtime;

import java.util.List;
import java.util.concurrent.Executor;

import io.fabric8.kubernetes.client.KubernetesClient;

import dev.informer.InformerCustomizer;

/**
 * What one start of an informer gives each of its watches.
 *
 * @param client the client to list and watch with
 * @param customizers the application's customizers, applied to each fabric8 informer
 * @param executor where listeners run
 * @param permits the cap on concurrent lists, shared by the informers
 * @param settings what the watches run with
 */
record WatchStart(KubernetesClient client, List<InformerCustomizer> customizers, Executor executor, ListPermits permits,
		WatchSettings settings) {

	WatchStart {
		customizers = List.copyOf(customizers);
	}

}
