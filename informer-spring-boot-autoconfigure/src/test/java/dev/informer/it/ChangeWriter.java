package dev.informer.it;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import dev.informer.test.TestResources;

/**
 * Creates, updates and deletes ConfigMaps of one namespace in a random mix (seeded, so a
 * failing run can be told apart by its seed) at about five changes a second, in the
 * background, directly against the API server; every change is logged with the
 * resourceVersion the server gave it. Starts paused; {@link #pause()} returns only once
 * no change is in flight.
 */
final class ChangeWriter implements AutoCloseable {

	/** Time between two changes: about five a second. */
	static final long PERIOD_MS = 200;

	private final KubernetesClient admin;

	private final String namespace;

	private final long seed;

	private final Random random;

	private final List<String> names = new ArrayList<>();

	private final Map<String, String> uids = new HashMap<>();

	private final List<Change> changes = new ArrayList<>();

	private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "change-writer");
		thread.setDaemon(true);
		return thread;
	});

	private boolean paused = true;

	private int sequence;

	private int failures;

	/**
	 * Create a paused writer.
	 * @param admin the client, straight to the server
	 * @param namespace the namespace
	 * @param seed the seed of the mix
	 * @param existing the objects that exist, name to uid
	 */
	ChangeWriter(KubernetesClient admin, String namespace, long seed, Map<String, String> existing) {
		this.admin = admin;
		this.namespace = namespace;
		this.seed = seed;
		this.random = new Random(seed);
		this.names.addAll(existing.keySet());
		this.names.sort(null);
		this.uids.putAll(existing);
		this.timer.scheduleAtFixedRate(this::step, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
	}

	long seed() {
		return this.seed;
	}

	synchronized void resume() {
		this.paused = false;
	}

	/**
	 * Stop changing; returns once the change in flight, if any, is done.
	 */
	synchronized void pause() {
		this.paused = true;
	}

	synchronized int count() {
		return this.changes.size();
	}

	synchronized int failures() {
		return this.failures;
	}

	synchronized List<Change> changes() {
		return List.copyOf(this.changes);
	}

	/**
	 * Return the uid of every object the writer knew, deleted ones too.
	 * @return name to uid
	 */
	synchronized Map<String, String> uids() {
		return Map.copyOf(this.uids);
	}

	private synchronized void step() {
		if (this.paused) {
			return;
		}
		int choice = this.random.nextInt(10);
		try {
			if (choice < 3 || this.names.isEmpty()) {
				String name = "w-" + (this.sequence++);
				ConfigMap created = this.admin.configMaps()
					.inNamespace(this.namespace)
					.resource(TestResources.configMap(this.namespace, name, "v0"))
					.create();
				this.names.add(name);
				this.uids.put(name, created.getMetadata().getUid());
				log(Change.Op.CREATE, created);
			}
			else if (choice < 5) {
				String name = this.names.remove(this.random.nextInt(this.names.size()));
				this.admin.configMaps().inNamespace(this.namespace).withName(name).delete();
				this.changes.add(new Change(Change.Op.DELETE, name, this.uids.get(name), null, Instant.now()));
			}
			else {
				String name = this.names.get(this.random.nextInt(this.names.size()));
				String value = "v" + this.random.nextInt();
				ConfigMap updated = this.admin.configMaps()
					.inNamespace(this.namespace)
					.withName(name)
					.edit((cm) -> new ConfigMapBuilder(cm).withData(Map.of("value", value)).build());
				log(Change.Op.UPDATE, updated);
			}
		}
		catch (KubernetesClientException ex) {
			// the server state is read back from the server; the log keeps what succeeded
			this.failures++;
		}
	}

	private void log(Change.Op op, ConfigMap result) {
		this.changes.add(new Change(op, result.getMetadata().getName(), result.getMetadata().getUid(),
				result.getMetadata().getResourceVersion(), Instant.now()));
	}

	@Override
	public void close() {
		pause();
		this.timer.shutdownNow();
	}

	/**
	 * One change the writer made.
	 *
	 * @param op what it did
	 * @param name the object
	 * @param uid its uid
	 * @param resourceVersion the resourceVersion the server gave it; {@code null} for a
	 * delete
	 * @param at when the server answered
	 */
	record Change(Op op, String name, String uid, String resourceVersion, Instant at) {

		enum Op {

			CREATE, UPDATE, DELETE

		}

	}

}
