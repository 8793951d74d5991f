package dev.informer.test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.informer.autoconfigure.InformerAutoConfiguration;
import dev.informer.event.ResourceAddedEvent;
import dev.informer.event.ResourceEvent;
import dev.informer.event.ResourceUpdatedEvent;
import dev.informer.runtime.DefaultInformerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code on-change} on a whole control plane ({@link ControlPlane}): while Deployments
 * are created, scaled, rolled and deleted at random and the controllers answer, an
 * informer of Deployments with {@code on-change: [generation]} and one of Pods with
 * {@code [labels, deletion]} deliver exactly the changes that matter: every update they
 * deliver changes a declared part since the state they last delivered, and every
 * generation (every label set, every deletion) that an informer without {@code on-change}
 * saw, they saw too. Prints how many updates each delivered.
 */
class OnChangeControlPlaneIT {

	private static final long SEED = Long.getLong("informer.control-plane.seed", new Random().nextLong());

	private static final String NAMESPACE = "cp-on-change";

	private static KubernetesClient admin;

	@BeforeAll
	static void connect() {
		if (!ControlPlane.isInstalled() && !Boolean.parseBoolean(System.getenv(RequiresRealServer.REQUIRE))) {
			Assumptions.abort("No control-plane binaries (build them with 'bash scripts/envtest.sh')");
		}
		admin = ControlPlane.shared().adminClient();
		admin.namespaces()
			.resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
			.serverSideApply();
	}

	@AfterAll
	static void close() {
		if (admin != null) {
			admin.close();
		}
	}

	@Test
	@Timeout(value = 6, unit = TimeUnit.MINUTES)
	void deploymentsAndPodsDeliverExactlyTheChangesThatMatter() {
		Recorder recorder = new Recorder();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(InformerAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> admin, (definition) -> definition.setDestroyMethodName(""))
			.withBean(Recorder.class, () -> recorder)
			.withPropertyValues(informer("deployments", "apps/v1", "Deployment"))
			.withPropertyValues(informer("deployments-generation", "apps/v1", "Deployment"))
			.withPropertyValues(informer("pods", "v1", "Pod"))
			.withPropertyValues(informer("pods-labels", "v1", "Pod"))
			.withPropertyValues("informer.resources.deployments-generation.on-change=generation",
					"informer.resources.pods-labels.on-change=labels,deletion", "informer.startup.timeout=2m")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				DeploymentChurn churn = new DeploymentChurn(admin, List.of(NAMESPACE), SEED);
				churn.run(40, Duration.ofMillis(150), () -> true);
				churn.awaitSettled(Duration.ofMinutes(3));
				DefaultInformerRegistry registry = context.getBean(DefaultInformerRegistry.class);
				// the caches hold every change, delivered or not
				Map<String, String> deployments = DeploymentChurn
					.state(admin.apps().deployments().inNamespace(NAMESPACE).list().getItems());
				Map<String, String> pods = DeploymentChurn.state(admin.pods().inNamespace(NAMESPACE).list().getItems());
				await().atMost(Duration.ofMinutes(1))
					.until(() -> DeploymentChurn.state(registry.informer("deployments-generation").getCache().list())
						.equals(deployments)
							&& DeploymentChurn.state(registry.informer("pods-labels").getCache().list()).equals(pods)
							&& DeploymentChurn.state(registry.informer("deployments").getCache().list())
								.equals(deployments)
							&& DeploymentChurn.state(registry.informer("pods").getCache().list()).equals(pods));

				assertThat(recorder.updates("deployments-generation"))
					.allSatisfy((update) -> assertThat(generation(update.getResource()))
						.isNotEqualTo(generation(update.getOldResource())));
				assertThat(recorder.seen("deployments-generation", OnChangeControlPlaneIT::generation))
					.isEqualTo(recorder.seen("deployments", OnChangeControlPlaneIT::generation));
				assertThat(recorder.updates("pods-labels"))
					.allSatisfy((update) -> assertThat(podParts(update.getResource()))
						.isNotEqualTo(podParts(update.getOldResource())));
				assertThat(recorder.seen("pods-labels", OnChangeControlPlaneIT::podParts))
					.isEqualTo(recorder.seen("pods", OnChangeControlPlaneIT::podParts));
				System.out.printf(
						"OnChangeControlPlaneIT (seed %d): Deployment updates delivered %d without on-change, %d with "
								+ "[generation]; Pod updates %d without, %d with [labels, deletion]%n",
						SEED, recorder.updates("deployments").size(), recorder.updates("deployments-generation").size(),
						recorder.updates("pods").size(), recorder.updates("pods-labels").size());
				assertThat(recorder.updates("deployments-generation").size())
					.isLessThan(recorder.updates("deployments").size());
			});
	}

	private static String[] informer(String name, String apiVersion, String kind) {
		return new String[] { "informer.resources." + name + ".api-version=" + apiVersion,
				"informer.resources." + name + ".kind=" + kind,
				"informer.resources." + name + ".namespaces=" + NAMESPACE };
	}

	private static String generation(HasMetadata resource) {
		return String.valueOf(((Deployment) resource).getMetadata().getGeneration());
	}

	private static String podParts(HasMetadata resource) {
		Pod pod = (Pod) resource;
		return pod.getMetadata().getLabels() + " deleting=" + (pod.getMetadata().getDeletionTimestamp() != null);
	}

	/**
	 * Records every add and update of every informer.
	 */
	static final class Recorder implements ApplicationListener<ApplicationEvent> {

		private final Map<String, List<ResourceEvent<?>>> events = new ConcurrentHashMap<>();

		@Override
		public void onApplicationEvent(ApplicationEvent event) {
			if (event instanceof ResourceAddedEvent<?>
					|| event instanceof ResourceUpdatedEvent<?> update && !update.isResync()) {
				ResourceEvent<?> resourceEvent = (ResourceEvent<?>) event;
				this.events.computeIfAbsent(resourceEvent.getInformerName(), (key) -> new CopyOnWriteArrayList<>())
					.add(resourceEvent);
			}
		}

		List<ResourceUpdatedEvent<?>> updates(String informer) {
			return this.events.getOrDefault(informer, List.of())
				.stream()
				.filter(ResourceUpdatedEvent.class::isInstance)
				.<ResourceUpdatedEvent<?>>map(ResourceUpdatedEvent.class::cast)
				.toList();
		}

		/**
		 * The distinct values of a part each object showed in the events, by object.
		 */
		Set<String> seen(String informer, Function<HasMetadata, String> part) {
			Set<String> result = ConcurrentHashMap.newKeySet();
			for (ResourceEvent<?> event : this.events.getOrDefault(informer, List.of())) {
				HasMetadata resource = event.getResource();
				result.add(resource.getMetadata().getUid() + " " + Objects.toString(part.apply(resource)));
			}
			return result;
		}

	}

}
