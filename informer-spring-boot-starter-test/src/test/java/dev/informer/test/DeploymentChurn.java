package dev.informer.test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import static org.awaitility.Awaitility.await;

/**
 * A seeded random stream of what users do to Deployments on a {@link ControlPlane}:
 * create (1 to 4 replicas), scale (0 to 5), roll (a new Pod template) and delete. The
 * controllers turn each into ReplicaSets, Pods and Events, the scheduler binds the Pods
 * and kwok runs them, so informers see the writes of a cluster rather than a test's.
 * <p>
 * A change that fails (an API server going down under it) is counted and skipped: the
 * server's state, not this stream, is what listeners are compared with.
 */
final class DeploymentChurn {

	private static final int PER_NAMESPACE = 4;

	private final KubernetesClient client;

	private final List<String> namespaces;

	private final Random random;

	private final Map<String, Integer> revisions = new HashMap<>();

	private int steps;

	private int failures;

	DeploymentChurn(KubernetesClient client, List<String> namespaces, long seed) {
		this.client = client;
		this.namespaces = List.copyOf(namespaces);
		this.random = new Random(seed);
	}

	/**
	 * Make changes, one every {@code pace}, until {@code done} says so and at least
	 * {@code minSteps} were made.
	 * @param minSteps the fewest changes
	 * @param pace the time between two changes (the users' rate, not a wait for anything)
	 * @param done whether to stop
	 */
	void run(int minSteps, Duration pace, BooleanSupplier done) {
		for (int step = 0; step < minSteps || !done.getAsBoolean(); step++) {
			step();
			LockSupport.parkNanos(pace.toNanos());
		}
	}

	/**
	 * Make one random change.
	 */
	void step() {
		this.steps++;
		String namespace = this.namespaces.get(this.random.nextInt(this.namespaces.size()));
		String name = "app-" + this.random.nextInt(PER_NAMESPACE);
		String key = namespace + "/" + name;
		int dice = this.random.nextInt(100);
		int replicas = this.random.nextInt(6);
		try {
			Deployment current = this.client.apps().deployments().inNamespace(namespace).withName(name).get();
			if (current == null) {
				int revision = this.revisions.merge(key, 1, Integer::sum);
				this.client.apps()
					.deployments()
					.resource(KwokNodes.deployment(namespace, name, 1 + replicas % 4, String.valueOf(revision)))
					.create();
			}
			else if (dice < 40) {
				this.client.apps().deployments().inNamespace(namespace).withName(name).scale(replicas);
			}
			else if (dice < 75) {
				String revision = String.valueOf(this.revisions.merge(key, 1, Integer::sum));
				this.client.apps()
					.deployments()
					.inNamespace(namespace)
					.withName(name)
					.edit((deployment) -> KwokNodes.deployment(namespace, name, deployment.getSpec().getReplicas(),
							revision));
			}
			else {
				this.client.apps().deployments().inNamespace(namespace).withName(name).delete();
			}
		}
		catch (KubernetesClientException ex) {
			this.failures++;
		}
	}

	int steps() {
		return this.steps;
	}

	int failures() {
		return this.failures;
	}

	/**
	 * Wait until the controllers have caught up: every Deployment rolled out to its
	 * replicas, and the only Pods left in the namespaces are its running ones.
	 * @param atMost how long that may take
	 */
	void awaitSettled(Duration atMost) {
		await("Deployments rolled out and Pods settled").atMost(atMost)
			.pollInterval(Duration.ofMillis(500))
			.until(this::isSettled);
	}

	private boolean isSettled() {
		for (String namespace : this.namespaces) {
			int wanted = 0;
			for (Deployment deployment : this.client.apps().deployments().inNamespace(namespace).list().getItems()) {
				int replicas = deployment.getSpec().getReplicas();
				var status = deployment.getStatus();
				if (status == null
						|| !Objects.equals(status.getObservedGeneration(), deployment.getMetadata().getGeneration())
						|| !Objects.equals(status.getUpdatedReplicas(), positive(replicas))
						|| !Objects.equals(status.getAvailableReplicas(), positive(replicas))
						|| !Objects.equals(status.getReplicas(), positive(replicas))) {
					return false;
				}
				wanted += replicas;
			}
			List<Pod> pods = this.client.pods().inNamespace(namespace).list().getItems();
			if (pods.size() != wanted || !pods.stream().allMatch(KwokNodes::isRunning)) {
				return false;
			}
		}
		return true;
	}

	// the API server omits zero counts from a Deployment's status
	private static Integer positive(int count) {
		return (count > 0) ? count : null;
	}

	/**
	 * Return the server's objects, namespace/name (or name) to resourceVersion.
	 * @param objects the objects, as listed
	 * @return the state
	 */
	static Map<String, String> state(List<? extends HasMetadata> objects) {
		Map<String, String> state = new HashMap<>();
		for (HasMetadata object : objects) {
			state.put(object.getMetadata().getNamespace() + "/" + object.getMetadata().getName(),
					object.getMetadata().getResourceVersion());
		}
		return state;
	}

}
