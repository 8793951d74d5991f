package dev.informer.test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
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
					this.client.configMaps()
						.resource(TestResources.configMap(this.namespace, name, "v" + step))
						.create();
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
				// fabric8's HTTP layer retries a request whose response was
				// slow or lost; when the first attempt was applied, the
				// retry answers 409 or 404. The server knows what happened,
				// and the invariant only compares listeners with the server.
				this.exists.put(name,
						this.client.configMaps().inNamespace(this.namespace).withName(name).get() != null);
			}
			if (disruptEvery > 0 && this.random.nextInt(disruptEvery) == 0) {
				disruption.accept(this.random.nextInt(100));
			}
		}
	}

	/**
	 * Create every object this stream changes that does not exist yet.
	 */
	public void createAll() {
		for (int i = 0; i < this.objects; i++) {
			String name = "obj-" + i;
			if (!this.exists.getOrDefault(name, false)) {
				change(name,
						() -> this.client.configMaps()
							.resource(TestResources.configMap(this.namespace, name, "c0"))
							.create(),
						true);
			}
		}
	}

	/**
	 * Change {@code size} distinct random objects as fast as the server answers: create
	 * the absent ones, update the present ones, then delete every second one of them, so
	 * that a listener that is behind has several changes of one object queued, ending in
	 * a delete.
	 * @param size the number of objects, at most the number this stream changes
	 */
	public void burst(int size) {
		List<String> names = new ArrayList<>();
		for (int i = 0; i < this.objects; i++) {
			names.add("obj-" + i);
		}
		Collections.shuffle(names, this.random);
		List<String> chosen = names.subList(0, Math.min(size, names.size()));
		for (String name : chosen) {
			if (this.exists.getOrDefault(name, false)) {
				String value = "b" + this.random.nextInt();
				change(name, () -> this.client.configMaps().inNamespace(this.namespace).withName(name).edit((cm) -> {
					cm.getData().put("value", value);
					return cm;
				}), true);
			}
			else {
				change(name,
						() -> this.client.configMaps()
							.resource(TestResources.configMap(this.namespace, name, "b0"))
							.create(),
						true);
			}
		}
		for (int i = 1; i < chosen.size(); i += 2) {
			String name = chosen.get(i);
			change(name, () -> this.client.configMaps().inNamespace(this.namespace).withName(name).delete(), false);
		}
	}

	private void change(String name, Runnable change, boolean existsAfter) {
		try {
			change.run();
			this.exists.put(name, existsAfter);
		}
		catch (KubernetesClientException ex) {
			if (ex.getCode() != 409 && ex.getCode() != 404) {
				throw new IllegalStateException("Change of " + name + " failed", ex);
			}
			// a retried write whose first attempt was applied, as in run()
			this.exists.put(name, this.client.configMaps().inNamespace(this.namespace).withName(name).get() != null);
		}
	}

	/**
	 * Return the server's state: name to resourceVersion.
	 * @return the state
	 */
	public Map<String, String> serverState() {
		return serverState(this.client, this.namespace);
	}

	/**
	 * Return the state of the objects these changes make in a namespace: key
	 * ({@code namespace/name}) to resourceVersion.
	 * @param client the client to list them with
	 * @param namespace the namespace
	 * @return the state
	 */
	public static Map<String, String> serverState(KubernetesClient client, String namespace) {
		Map<String, String> state = new LinkedHashMap<>();
		for (ConfigMap cm : client.configMaps().inNamespace(namespace).list().getItems()) {
			if (cm.getMetadata().getName().startsWith("obj-")) {
				state.put(namespace + "/" + cm.getMetadata().getName(), cm.getMetadata().getResourceVersion());
			}
		}
		return state;
	}

}
