package dev.informer.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The sample's custom resource, {@code Widget} ({@code example.com/v1}), defined by
 * {@code k8s/widget-crd.yaml} (packaged on the classpath). A cluster must serve it before
 * the informers start: install it with {@value #APPLY_COMMAND}, or start the sample with
 * {@code sample.install-crd=true} to have it applied to the cluster the application
 * connects to, before the informers resolve their kinds. Without it, startup fails and
 * {@link WidgetCrdFailureAnalyzer} names both ways.
 */
@Configuration(proxyBeanMethods = false)
class WidgetCrd {

	/** The property that makes the sample install its CRD. */
	static final String INSTALL_PROPERTY = "sample.install-crd";

	/** The one command that installs the CRD, from the repository root. */
	static final String APPLY_COMMAND = "kubectl apply -f sample-app/k8s/widget-crd.yaml";

	private static final Log logger = LogFactory.getLog(WidgetCrd.class);

	/**
	 * Apply the CRD as soon as the application's {@link KubernetesClient} exists: the
	 * informer registry, which checks every declared kind against the API server, is
	 * created with that client, so after this.
	 * @return the post-processor
	 */
	@Bean
	@ConditionalOnBooleanProperty(INSTALL_PROPERTY)
	static BeanPostProcessor widgetCrdInstaller() {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof KubernetesClient client) {
					logger.info("Installing the Widget CRD into " + client.getMasterUrl() + " (" + INSTALL_PROPERTY
							+ "=true)");
					install(client, true);
				}
				return bean;
			}

		};
	}

	/**
	 * Create or update the CRD.
	 * @param client the client of the cluster
	 * @param waitUntilEstablished whether to wait until the server serves the kind (a
	 * real API server establishes a CRD asynchronously; fabric8's mock never does)
	 */
	static void install(KubernetesClient client, boolean waitUntilEstablished) {
		CustomResourceDefinition crd = load(client);
		client.apiextensions().v1().customResourceDefinitions().resource(crd).createOr(NonDeletingOperation::update);
		if (waitUntilEstablished) {
			client.apiextensions()
				.v1()
				.customResourceDefinitions()
				.withName(crd.getMetadata().getName())
				.waitUntilCondition((current) -> current != null && current.getStatus() != null
						&& current.getStatus().getConditions() != null
						&& current.getStatus()
							.getConditions()
							.stream()
							.anyMatch((condition) -> "Established".equals(condition.getType())
									&& "True".equals(condition.getStatus())),
						60, TimeUnit.SECONDS);
		}
	}

	private static CustomResourceDefinition load(KubernetesClient client) {
		try (InputStream yaml = WidgetCrd.class.getResourceAsStream("/k8s/widget-crd.yaml")) {
			if (yaml == null) {
				throw new IllegalStateException("k8s/widget-crd.yaml is missing from the classpath");
			}
			return client.apiextensions().v1().customResourceDefinitions().load(yaml).item();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
