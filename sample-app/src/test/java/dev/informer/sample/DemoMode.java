package dev.informer.sample;

import java.nio.file.Path;
import java.util.Optional;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;

import dev.informer.InformerRegistry;

/**
 * Demo mode, added to the sample by {@link TestSampleApplication}: an embedded API server
 * whose client the application uses instead of a kubeconfig, seeded with objects and the
 * Widget CRD, then kept changing so that every event type shows within seconds.
 * <p>
 * The embedded server is a real kube-apiserver with etcd when {@code scripts/envtest.sh}
 * has built their binaries (under {@code ~/.kubeapitest}, or {@code KUBEAPITEST_DIR}),
 * otherwise fabric8's mock API server. The property {@code demo} ({@code DEMO} in the
 * environment) chooses: {@code auto} (default) the best server available, {@code real}
 * the real one (failing without binaries), {@code mock} the mock. If the real server
 * fails to start in {@code auto}, the demo says so and falls back to the mock.
 */
@TestConfiguration(proxyBeanMethods = false)
class DemoMode {

	private static final Log logger = LogFactory.getLog(DemoMode.class);

	/**
	 * The embedded server, owned by the context: closed after the informers stopped
	 * (lifecycle stop precedes bean destruction).
	 * @param environment where {@code demo} is read
	 * @return the started server
	 */
	@Bean(destroyMethod = "close")
	DemoApiServer demoApiServer(Environment environment) {
		DemoApiServer server = start(environment.getProperty("demo", "auto"));
		logger.warn("DEMO MODE: this run uses an embedded API server at " + server.client().getMasterUrl() + ": "
				+ server.describe() + ". Run SampleApplication (spring-boot:run) to use your kubeconfig's cluster.");
		return server.handOver();
	}

	/**
	 * The client of the embedded server; the starter uses it and, as with every client it
	 * did not create, never closes it (the server does). Handed out once the server is
	 * seeded: the informer registry, created with it, checks the Widget kind.
	 * @param server the embedded server
	 * @param seeded the traffic, whose seed is in the server
	 * @return its client
	 */
	@Bean(destroyMethod = "")
	KubernetesClient demoKubernetesClient(DemoApiServer server, DemoTraffic seeded) {
		return server.client();
	}

	/**
	 * The seeded objects and the changes to come.
	 * @param server the embedded server
	 * @return the traffic, not yet started
	 */
	@Bean(destroyMethod = "close")
	DemoTraffic demoTraffic(DemoApiServer server) {
		DemoTraffic traffic = new DemoTraffic(server.client());
		traffic.seed(server.isReal());
		return traffic;
	}

	@EventListener
	void onReady(ApplicationReadyEvent event) {
		DemoApiServer server = event.getApplicationContext().getBean(DemoApiServer.class);
		logger.info("DEMO MODE on " + server.describe() + ". Every " + DemoTraffic.PERIOD_SECONDS
				+ " s one object changes; 'configmaps' is relisted after "
				+ DemoTraffic.RELIST_TICK * DemoTraffic.PERIOD_SECONDS + " s.");
		event.getApplicationContext()
			.getBean(DemoTraffic.class)
			.start(event.getApplicationContext().getBean(InformerRegistry.class));
	}

	/**
	 * First thing on shutdown: no change is made while the informers and the server stop.
	 * @param event the close
	 */
	@EventListener
	void onClose(ContextClosedEvent event) {
		event.getApplicationContext().getBeanProvider(DemoTraffic.class).ifAvailable(DemoTraffic::close);
	}

	private static DemoApiServer start(String mode) {
		if (!mode.equals("auto") && !mode.equals("real") && !mode.equals("mock")) {
			throw new IllegalArgumentException("demo=" + mode + " is not a demo mode: use auto, real or mock");
		}
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
			throw new IllegalStateException(missing + " (demo=real requires them)");
		}
		logger.info(missing + " to run the demo on a real API server; using fabric8's mock API server");
		return DemoApiServer.mock();
	}

}
