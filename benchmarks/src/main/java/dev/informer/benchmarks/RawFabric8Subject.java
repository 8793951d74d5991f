package dev.informer.benchmarks;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * (a) A fabric8 {@link SharedIndexInformer} with a handler that only calls the probe.
 */
final class RawFabric8Subject implements Subject {

	@Override
	public String id() {
		return "a";
	}

	@Override
	public String description() {
		return "raw fabric8 SharedIndexInformer, no-op handler";
	}

	@Override
	public Running start(ApiServer server, String namespace, Probe probe) {
		KubernetesClient client = server.newClient();
		// the starter's discovery opens the connection before its informers start; do the
		// same so that neither sync time includes the TLS handshake
		client.getKubernetesVersion();
		probe.informerStarting();
		long started = System.nanoTime();
		SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(namespace).runnableInformer(0);
		informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(ConfigMap resource) {
				probe.added(resource);
			}

			@Override
			public void onUpdate(ConfigMap oldResource, ConfigMap newResource) {
				probe.updated(newResource);
			}

			@Override
			public void onDelete(ConfigMap resource, boolean deletedFinalStateUnknown) {
			}

		});
		informer.start();
		return new Running() {

			@Override
			public long informerStartedAt() {
				return started;
			}

			@Override
			public void close() {
				informer.stop();
				client.close();
			}

		};
	}

}
