package dev.informer.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.autoconfigure.OverrideAutoConfiguration;
import org.springframework.boot.test.context.PropertyMapping;
import org.springframework.boot.test.context.PropertyMapping.Skip;
import org.springframework.boot.test.context.filter.annotation.TypeExcludeFilters;
import org.springframework.context.annotation.ComponentScan.Filter;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.context.BootstrapWith;
import org.springframework.test.context.ContextCustomizerFactories;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * Annotation for a test of informer listeners that focuses only on the informers.
 * <p>
 * Using this annotation only enables the informer auto-configuration (with its health
 * contributor and metrics when their libraries are on the class path) and scans only the
 * components that declare
 * {@link org.springframework.context.event.EventListener @EventListener} methods, plus
 * what {@link #includeFilters()} names; add other beans with
 * {@link org.springframework.context.annotation.Import @Import}.
 * <p>
 * The informers talk to a Kubernetes API server chosen by {@link #server()}, or by the
 * {@code informer.test.server} property when the attribute is left at
 * {@link Server#AUTO}. A {@link dev.informer.autoconfigure.KubernetesConnectionDetails}
 * bean, such as the one that {@code @ServiceConnection} creates for a
 * {@code K3sContainer}, takes precedence over both. The test's {@code KubernetesClient}
 * bean defaults to a fresh namespace per application context, also available as the
 * {@code informer.test.namespace} property (for example
 * {@code informer.resources.configmaps.namespaces=${informer.test.namespace}}).
 * <p>
 * An {@link InformerEvents} bean records the informer events, for assertions that wait.
 *
 * @see InformerEvents
 * @since 0.1.0
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@BootstrapWith(InformerTestContextBootstrapper.class)
@ExtendWith(SpringExtension.class)
@OverrideAutoConfiguration(enabled = false)
@TypeExcludeFilters(InformerTypeExcludeFilter.class)
@ContextCustomizerFactories(TestNamespaceContextCustomizerFactory.class)
@ImportAutoConfiguration
public @interface InformerTest {

	/**
	 * Properties in form {@literal key=value} that should be added to the Spring
	 * {@link org.springframework.core.env.Environment} before the test runs.
	 * @return the properties to add
	 */
	String[] properties() default {};

	/**
	 * The Kubernetes API server the informers talk to.
	 * @return the server
	 */
	@PropertyMapping(value = "informer.test.server", skip = Skip.ON_DEFAULT_VALUE)
	Server server() default Server.AUTO;

	/**
	 * Kubernetes manifests (YAML or JSON, as Spring resource locations such as
	 * {@code classpath:k8s/widgets.yaml}) whose objects are created before the informers
	 * start, in order. Namespaced objects without a namespace go to the test's namespace.
	 * After a CustomResourceDefinition, the next object waits until the server serves it.
	 * @return the manifest locations
	 */
	@PropertyMapping(value = "informer.test.manifests", skip = Skip.ON_DEFAULT_VALUE)
	String[] manifests() default {};

	/**
	 * Whether the informers, and the application's {@code KubernetesClient}, run as a
	 * user that has only the RBAC rules {@link dev.informer.RbacRules} computes for the
	 * declared informers ({@code list} and {@code watch} on each declared resource, in a
	 * Role per declared namespace or a ClusterRole), granted before they start. The
	 * test's namespace and {@link #manifests() manifests} are still created with admin
	 * rights, and a test creates objects with the {@link AdminClient @AdminClient}
	 * client. Needs a server that enforces RBAC: {@link Server#REAL} or a K3s
	 * {@code @ServiceConnection}.
	 * @return whether the informers run with restricted credentials
	 */
	@PropertyMapping(value = "informer.test.restricted", skip = Skip.ON_DEFAULT_VALUE)
	boolean restricted() default false;

	/**
	 * Determines if default filtering should be used with
	 * {@link org.springframework.boot.autoconfigure.SpringBootApplication @SpringBootApplication}.
	 * By default only components with {@code @EventListener} methods are included.
	 * @return if default filters should be used
	 */
	boolean useDefaultFilters() default true;

	/**
	 * A set of include filters which can be used to add otherwise filtered beans to the
	 * application context.
	 * @return include filters to apply
	 */
	Filter[] includeFilters() default {};

	/**
	 * A set of exclude filters which can be used to filter beans that would otherwise be
	 * added to the application context.
	 * @return exclude filters to apply
	 */
	Filter[] excludeFilters() default {};

	/**
	 * Auto-configuration exclusions that should be applied for this test.
	 * @return auto-configuration exclusions to apply
	 */
	@AliasFor(annotation = ImportAutoConfiguration.class, attribute = "exclude")
	Class<?>[] excludeAutoConfiguration() default {};

	/**
	 * The Kubernetes API servers a test can run against.
	 */
	enum Server {

		/**
		 * A real kube-apiserver and etcd when their binaries are installed (see
		 * {@code scripts/envtest.sh}), otherwise the mock server.
		 */
		AUTO,

		/**
		 * A real kube-apiserver and etcd, started offline on the loopback interface from
		 * the binaries that {@code scripts/envtest.sh} installs in {@code ~/.kubeapitest}
		 * (or {@code $KUBEAPITEST_DIR}); one per JVM, shared by the test classes. Fails
		 * when the binaries are missing.
		 */
		REAL,

		/**
		 * A whole control plane without Docker ({@link ControlPlane}): etcd, two
		 * kube-apiservers behind a load balancer, kube-controller-manager (deployment,
		 * replicaset, garbage-collector, namespace, serviceaccount and node-lifecycle
		 * controllers), kube-scheduler and kwok simulating
		 * {@value ControlPlane#DEFAULT_NODES} nodes
		 * ({@code -Dinformer.test.cluster.nodes}), so that a Deployment's Pods are
		 * created, scheduled, run and deleted; one per JVM, shared by the test classes.
		 * Built by {@code scripts/envtest.sh} beside the {@link #REAL} server's binaries;
		 * fails when they are missing.
		 */
		CLUSTER,

		/**
		 * fabric8's mock API server in CRUD mode, one per application context: list and
		 * watch work, but there is no admission, validation, garbage collection or
		 * server-side field selection.
		 */
		MOCK

	}

}
