package dev.informer.sample;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.support.DefaultLifecycleProcessor;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.SpringProperties;

import dev.informer.InformerRegistry;

/**
 * Demo mode: when no cluster answers (a fresh machine), start an embedded API server,
 * hand the application a client for it, seed objects and keep changing them so that every
 * event type shows within seconds.
 * <p>
 * The embedded server is a real kube-apiserver with etcd when {@code scripts/envtest.sh}
 * has built their binaries (under {@code ~/.kubeapitest}, or {@code KUBEAPITEST_DIR}),
 * otherwise fabric8's mock API server. The mode comes from {@code -Ddemo} or
 * {@code DEMO}:
 * <ul>
 * <li>{@code auto} (default): demo only when no cluster answers, on the best server
 * available</li>
 * <li>never in a training run for class data sharing or an AOT cache
 * ({@code -Dspring.context.exit=onRefresh}), whatever the mode</li>
 * <li>{@code true}: demo even if a cluster answers</li>
 * <li>{@code real} / {@code mock}: demo on that server ({@code real} fails without
 * binaries)</li>
 * <li>{@code false}: never; a cluster is required</li>
 * </ul>
 */
final class DemoMode {

	private static final Log logger = LogFactory.getLog(DemoMode.class);

	private DemoMode() {
	}

	/**
	 * Return the mode requested by {@code -Ddemo} or the {@code DEMO} environment
	 * variable.
	 */
	static String requested() {
		return System.getProperty("demo", System.getenv().getOrDefault("DEMO", "auto"));
	}

	/**
	 * Prepare {@code application} for demo mode if {@code mode} asks for it.
	 * @param application the application, not yet run
	 * @param mode {@code auto}, {@code true}, {@code false}, {@code real} or {@code mock}
	 */
	static void apply(SpringApplication application, String mode) {
		if ("false".equals(mode) || isTrainingRun() || ("auto".equals(mode) && clusterAnswers())) {
			return;
		}
		DemoApiServer server = start(mode);
		logger.warn("DEMO MODE: " + (("auto".equals(mode)) ? "no Kubernetes cluster answered, so " : "")
				+ "this run uses an embedded API server at " + server.client().getMasterUrl() + ": " + server.describe()
				+ ". Set -Ddemo=false to require a cluster.");
		DemoTraffic traffic = new DemoTraffic(server.client());
		try {
			traffic.seed(server.isReal());
		}
		catch (RuntimeException ex) {
			server.close();
			throw ex;
		}
		application.setAdditionalProfiles("demo");
		application.addInitializers((context) -> {
			GenericApplicationContext beans = (GenericApplicationContext) context;
			// destroyed after the informers stopped (lifecycle stop precedes bean
			// destruction)
			beans.registerBean("demoApiServer", DemoApiServer.class, server::handOver);
			beans.registerBean("demoKubernetesClient", KubernetesClient.class, server::client, (definition) -> {
				definition.setDependsOn("demoApiServer");
				definition.setDestroyMethodName(""); // the server closes it
			});
			context.addApplicationListener((ApplicationReadyEvent event) -> traffic
				.start(event.getApplicationContext().getBean(InformerRegistry.class)));
			// first thing on shutdown: no change is made while informers and the server
			// stop
			context.addApplicationListener((ContextClosedEvent event) -> traffic.close());
		});
	}

	private static DemoApiServer start(String mode) {
		Path root = DemoApiServer.binaryRoot();
		Optional<String> version = DemoApiServer.installedVersion(root);
		if ("mock".equals(mode)) {
			return DemoApiServer.mock();
		}
		if (version.isPresent()) {
			logger
				.info("Starting kube-apiserver " + version.get() + " and etcd from " + root + " (takes a few seconds)");
			try {
				return DemoApiServer.real(root, version.get());
			}
			catch (RuntimeException ex) {
				if ("real".equals(mode)) {
					throw ex;
				}
				logger.warn("The real API server did not start (" + ex.getMessage()
						+ "); using fabric8's mock API server instead");
				return DemoApiServer.mock();
			}
		}
		String missing = "No kube-apiserver/etcd binaries under " + root.resolve("k8s")
				+ "; build them with 'bash scripts/envtest.sh'";
		if ("real".equals(mode)) {
			throw new IllegalStateException(missing + " (-Ddemo=real requires them)");
		}
		logger.info(missing + " to run the demo on a real API server; using fabric8's mock API server");
		return DemoApiServer.mock();
	}

	/**
	 * Whether this is a training run for class data sharing or an AOT cache
	 * ({@code -Dspring.context.exit=onRefresh}, as an image build with
	 * {@code BP_JVM_CDS_ENABLED} runs it): the context halts after its refresh, so a demo
	 * server would only be started and seeded for nothing.
	 */
	private static boolean isTrainingRun() {
		return DefaultLifecycleProcessor.ON_REFRESH_VALUE
			.equalsIgnoreCase(SpringProperties.getProperty(DefaultLifecycleProcessor.EXIT_PROPERTY_NAME));
	}

	private static boolean clusterAnswers() {
		Config config = new ConfigBuilder(Config.autoConfigure(null)).withRequestRetryBackoffLimit(0)
			.withConnectionTimeout((int) Duration.ofSeconds(2).toMillis())
			.withRequestTimeout((int) Duration.ofSeconds(3).toMillis())
			.build();
		try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
			client.getKubernetesVersion();
			return true;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

}
