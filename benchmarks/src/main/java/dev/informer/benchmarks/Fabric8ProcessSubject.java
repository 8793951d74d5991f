package dev.informer.benchmarks;

import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.jspecify.annotations.Nullable;

/**
 * Subject (a) of the per-process benchmark in a JVM of its own: a fabric8
 * {@link SharedIndexInformer} on the namespace's ConfigMaps with a handler that only
 * counts ({@link SubjectProtocol.Tally}), on a client from the kubeconfig
 * ({@code -Dkubeconfig}). A warm sync stops the informer and starts a new one on the same
 * client. Arguments: {@code NAMESPACE EXPECTED}.
 */
final class Fabric8ProcessSubject implements SubjectProtocol.Driver {

	private final String namespace;

	private final SubjectProtocol.Tally tally;

	private @Nullable KubernetesClient client;

	private @Nullable SharedIndexInformer<ConfigMap> informer;

	private Fabric8ProcessSubject(String namespace, SubjectProtocol.Tally tally) {
		this.namespace = namespace;
		this.tally = tally;
	}

	public static void main(String[] args) {
		SubjectProtocol.Tally tally = new SubjectProtocol.Tally(Integer.parseInt(args[1]));
		SubjectProtocol.serve(new Fabric8ProcessSubject(args[0], tally), tally);
	}

	@Override
	public void prepare() {
		if (this.client == null) {
			this.client = new KubernetesClientBuilder().build();
			// the first request opens the connection before the sync, as every subject
			// does
			this.client.getKubernetesVersion();
		}
		if (this.informer != null) {
			this.informer.stop();
		}
		this.tally.resetAdds();
		this.informer = this.client.configMaps().inNamespace(this.namespace).runnableInformer(0);
		SubjectProtocol.Tally tally = this.tally;
		this.informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(ConfigMap resource) {
				tally.added();
			}

			@Override
			public void onUpdate(ConfigMap oldResource, ConfigMap newResource) {
				tally.updated((newResource.getData() != null) ? newResource.getData().get(Probe.SEQ) : null);
			}

			@Override
			public void onDelete(ConfigMap resource, boolean deletedFinalStateUnknown) {
			}

		});
	}

	@Override
	public void sync() throws Exception {
		this.informer.start();
		this.tally.awaitAdds();
	}

	@Override
	public Map<String, Object> synced() {
		return Map.of("items", this.informer.getIndexer().listKeys().size());
	}

}
