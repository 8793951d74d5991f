package dev.informer.sample;

import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;

/**
 * The README's first command, {@code ./mvnw -f sample-app spring-boot:test-run}, as
 * Spring Boot runs an application with test-only services: the sample against the current
 * kubeconfig's cluster when it answers and serves the Widget CRD, otherwise in demo mode
 * on an embedded API server ({@link DemoMode}), saying why. {@code -Ddemo=auto|real|mock}
 * asks for the demo whatever the cluster. The test servers stay in test scope, so
 * {@link SampleApplication}'s jar does not carry them ({@link PackagedJarIT}).
 */
public class TestSampleApplication {

	private static final Log logger = LogFactory.getLog(TestSampleApplication.class);

	public static void main(String[] args) {
		String demo = System.getProperty("demo", System.getenv("DEMO"));
		String unusable = (demo != null) ? "demo=" + demo + " asks for demo mode" : unusableCluster();
		if (unusable == null) {
			logger.info("The current kubeconfig's cluster serves the Widget CRD: running the sample against it "
					+ "(-Ddemo=auto runs the demo instead)");
			SpringApplication.run(SampleApplication.class, args);
			return;
		}
		logger.warn(unusable + "; running the sample in demo mode, on an embedded API server");
		demo().run(args);
	}

	/**
	 * Return the sample's {@code main} with demo mode and its profile added.
	 * @return the application, not yet run
	 */
	static SpringApplication.Augmented demo() {
		return SpringApplication.from(SampleApplication::main).with(DemoMode.class).withAdditionalProfiles("demo");
	}

	/**
	 * Return why the current kubeconfig's cluster cannot run the sample, or {@code null}
	 * when it can: it answers within a few seconds and serves {@code example.com/v1}
	 * widgets.
	 * @return the reason, or {@code null}
	 */
	static @Nullable String unusableCluster() {
		Config config = new ConfigBuilder(Config.autoConfigure(null)).withConnectionTimeout(2000)
			.withRequestTimeout(3000)
			.withRequestRetryBackoffLimit(0)
			.build();
		try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
			APIResourceList resources = client.getApiResources("example.com/v1");
			boolean served = resources != null
					&& resources.getResources().stream().anyMatch((resource) -> "widgets".equals(resource.getName()));
			return served ? null
					: "The current kubeconfig's cluster " + config.getMasterUrl()
							+ " does not serve the sample's Widget CRD (to use it: kubectl apply -f "
							+ "sample-app/k8s/widget-crd.yaml)";
		}
		catch (KubernetesClientException ex) {
			if (ex.getCode() == 404) {
				return "The current kubeconfig's cluster " + config.getMasterUrl()
						+ " does not serve the sample's Widget CRD (to use it: kubectl apply -f "
						+ "sample-app/k8s/widget-crd.yaml)";
			}
			return "No cluster answers at " + config.getMasterUrl() + " (the current kubeconfig's, or the default)";
		}
	}

}
