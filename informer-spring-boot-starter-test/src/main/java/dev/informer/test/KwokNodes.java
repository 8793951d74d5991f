package dev.informer.test;

import java.time.Duration;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

import static org.awaitility.Awaitility.await;

/**
 * The fake nodes of a {@link ControlPlane}, which kwok manages (it keeps them Ready and
 * plays their kubelets), and the Deployments tests run on them.
 */
final class KwokNodes {

	/** The annotation kwok selects its nodes by. */
	static final String ANNOTATION = "kwok.x-k8s.io/node";

	private KwokNodes() {
	}

	static void create(KubernetesClient client, int count) {
		Map<String, Quantity> capacity = Map.of("cpu", new Quantity("32"), "memory", new Quantity("256Gi"), "pods",
				new Quantity("110"));
		for (int i = 0; i < count; i++) {
			String name = "kwok-node-" + i;
			Node node = new NodeBuilder().withNewMetadata()
				.withName(name)
				.addToAnnotations(ANNOTATION, "fake")
				.addToAnnotations("node.alpha.kubernetes.io/ttl", "0")
				.addToLabels("type", "kwok")
				.addToLabels("kubernetes.io/hostname", name)
				.addToLabels("kubernetes.io/os", "linux")
				.addToLabels("kubernetes.io/arch", "amd64")
				.endMetadata()
				.withNewStatus()
				.withCapacity(capacity)
				.withAllocatable(capacity)
				.withNewNodeInfo()
				.withArchitecture("amd64")
				.withOperatingSystem("linux")
				.withKubeletVersion("fake")
				.withKubeProxyVersion("fake")
				.endNodeInfo()
				.endStatus()
				.build();
			client.nodes().resource(node).create();
		}
	}

	static void awaitReady(KubernetesClient client, int count, Duration atMost) {
		await("kwok nodes Ready").atMost(atMost)
			.pollInterval(Duration.ofMillis(200))
			.until(() -> client.nodes()
				.withLabel("type", "kwok")
				.list()
				.getItems()
				.stream()
				.filter(KwokNodes::isReady)
				.count() == count);
	}

	private static boolean isReady(Node node) {
		return node.getStatus() != null && node.getStatus().getConditions() != null && node.getStatus()
			.getConditions()
			.stream()
			.anyMatch((condition) -> "Ready".equals(condition.getType()) && "True".equals(condition.getStatus()));
	}

	/**
	 * Create a Deployment of one replica in {@code default}, wait until its Pod runs,
	 * then delete it: the controllers, the scheduler and kwok work.
	 */
	static void awaitRunningDeployment(KubernetesClient client, Duration atMost) {
		Deployment probe = deployment("default", "control-plane-probe", 1, "1");
		client.apps().deployments().resource(probe).create();
		await("a Deployment's Pod Running").atMost(atMost)
			.pollInterval(Duration.ofMillis(200))
			.until(() -> client.pods()
				.inNamespace("default")
				.withLabel("app", "control-plane-probe")
				.list()
				.getItems()
				.stream()
				.anyMatch(KwokNodes::isRunning));
		client.apps().deployments().resource(probe).delete();
	}

	static boolean isRunning(Pod pod) {
		return pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase());
	}

	/**
	 * A Deployment whose Pods run on kwok nodes; {@code revision} is an annotation of the
	 * Pod template, so that changing it rolls the Deployment.
	 * @param namespace the namespace
	 * @param name the name, also the {@code app} label
	 * @param replicas the replicas
	 * @param revision the template's revision
	 * @return the Deployment
	 */
	static Deployment deployment(String namespace, String name, int replicas, String revision) {
		return new DeploymentBuilder().withNewMetadata()
			.withNamespace(namespace)
			.withName(name)
			.endMetadata()
			.withNewSpec()
			.withReplicas(replicas)
			.withNewSelector()
			.addToMatchLabels("app", name)
			.endSelector()
			.withNewStrategy()
			.withType("RollingUpdate")
			.withNewRollingUpdate()
			.withNewMaxSurge("50%")
			.withNewMaxUnavailable("50%")
			.endRollingUpdate()
			.endStrategy()
			.withNewTemplate()
			.withNewMetadata()
			.addToLabels("app", name)
			.addToAnnotations("informer.dev/revision", revision)
			.endMetadata()
			.withNewSpec()
			.withTerminationGracePeriodSeconds(0L)
			.addToNodeSelector("type", "kwok")
			.addNewContainer()
			.withName("app")
			.withImage("registry.invalid/app:" + revision)
			.endContainer()
			.endSpec()
			.endTemplate()
			.endSpec()
			.build();
	}

}
