package dev.informer.test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * A seeded random stream of creates, updates and deletes of ConfigMaps in one namespace,
 * with a disruption (a dropped connection, a relist...) injected every so often.
 */
public final class RandomChanges {

	private final KubernetesClient client;

	private final String namespace;

	private final Random random;

	private final int objects;

	private final Map<String, Boolean> exists = new HashMap<>();

	public RandomChanges(KubernetesClient client, String namespace, long seed, int objects) {
		this.client = client;
		this.namespace = namespace;
		this.random = new Random(seed);
		this.objects = objects;
	}

	/**
	 * Run the changes.
	 * @param steps the number of changes
	 * @param disruptEvery inject a disruption about once in this many steps
	 * @param disruption the disruption, given a random number to choose its kind
	 */
	public void run(int steps, int disruptEvery, java.util.function.IntConsumer disruption) {
		for (int step = 0; step < steps; step++) {
			String name = "obj-" + this.random.nextInt(this.objects);
			boolean present = this.exists.getOrDefault(name, false);
			int dice = this.random.nextInt(10);
			try {
				if (!present) {
					this.client.configMaps().resource(TestResources.configMap(this.namespace, name, "v" + step)).create();
					this.exists.put(name, true);
				}
				else if (dice < 7) {
					String value = "v" + step;
					this.client.configMaps().inNamespace(this.namespace).withName(name).edit((cm) -> {
						cm.getData().put("value", value);
						return cm;
					});
				}
				else {
					this.client.configMaps().inNamespace(this.namespace).withName(name).delete();
					this.exists.put(name, false);
				}
			}
			catch (KubernetesClientException ex) {
				if (ex.getCode() != 409 && ex.getCode() != 404) {
					throw new IllegalStateException("Change " + step + " on " + name + " failed", ex);
				}
				// fabric8's HTTP layer retries a request whose response was slow or lost; when the
				// first attempt was applied, the retry answers 409 or 404. The server knows what
				// happened, and the invariant only compares listeners with the server.
				this.exists.put(name,
						this.client.configMaps().inNamespace(this.namespace).withName(name).get() != null);
			}
			if (disruptEvery > 0 && this.random.nextInt(disruptEvery) == 0) {
				disruption.accept(this.random.nextInt(100));
			}
		}
	}

	/**
	 * Return the server's state: name to resourceVersion.
	 * @return the state
	 */
	public Map<String, String> serverState() {
		Map<String, String> state = new LinkedHashMap<>();
		for (ConfigMap cm : this.client.configMaps().inNamespace(this.namespace).list().getItems()) {
			if (cm.getMetadata().getName().startsWith("obj-")) {
				state.put(this.namespace + "/" + cm.getMetadata().getName(), cm.getMetadata().getResourceVersion());
			}
		}
		return state;
	}

}
